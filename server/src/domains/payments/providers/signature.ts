import crypto from "node:crypto";

/** Seconds a signed notification stays acceptable: older (or future) ones are refused as replays. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`: the scheme Stripe documents for its Stripe-Signature
 * header, used by the sandbox provider for its own notifications so it exercises the same checks.
 */
export function signNotification(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const v1 = crypto.createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
  return `t=${timestamp},v1=${v1}`;
}

/** True when one of the header's v1 signatures matches the body and its timestamp is within the tolerance. */
export function verifyNotificationSignature(secret: string, body: Buffer, header: string | undefined, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
  if (!header) return false;
  const parts = header.split(",").map((p) => p.trim().split("="));
  const t = Number(parts.find(([k]) => k === "t")?.[1]);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const expected = crypto.createHmac("sha256", secret).update(`${t}.`).update(body).digest();
  return parts
    .filter(([k]) => k === "v1")
    .some(([, v]) => {
      const given = Buffer.from(v ?? "", "hex");
      return given.length === expected.length && crypto.timingSafeEqual(given, expected);
    });
}
