/** The device fingerprint the runtime gave vendors, kept so the checkout report (and so the server's conversion) carries the same external_id. */
let fingerprint: string | null = null;

export const deviceId = (): string | null => fingerprint;

export function rememberDeviceId(id: string | null): void {
  fingerprint = id;
}
