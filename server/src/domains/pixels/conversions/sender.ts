import crypto from "node:crypto";
import type { ServerConversionVendor } from "../../../contract/pixels.ts";
import type { ServerConversionSettings } from "../pixels.schema.ts";

/** One purchase as every vendor call needs it. */
export interface ConversionToSend {
  eventId: string;
  orderId: number;
  occurredAt: Date;
  /** major units as a decimal string ("1.99"), and the ISO currency */
  value: string;
  currency: string;
  /** captured from the browser at checkout (docs/decisions/121) */
  context: DeliveryContext;
}

export interface DeliveryContext {
  fbclid?: string | null;
  fbp?: string | null;
  ttclid?: string | null;
  gclid?: string | null;
  device_id?: string | null;
  client_ip?: string | null;
  user_agent?: string | null;
  page_url?: string | null;
}

export type Http = (url: string, init: RequestInit) => Promise<Response>;

/** One vendor's server-to-server conversion API. `send` resolves when the vendor accepted the event, throws otherwise. */
export interface ConversionSender<V extends ServerConversionVendor = ServerConversionVendor> {
  vendor: V;
  /** false when this purchase lacks what the vendor needs (Google Ads: a gclid); no delivery is queued then */
  applies(context: DeliveryContext): boolean;
  send(c: ConversionToSend, settings: NonNullable<ServerConversionSettings[V]>, http: Http): Promise<void>;
}

/** Vendors want personal identifiers normalised and SHA-256 hashed, never in the clear. */
export function sha256(value: string): string {
  return crypto.createHash("sha256").update(value.trim().toLowerCase()).digest("hex");
}

export async function failure(vendor: string, res: Response): Promise<Error> {
  const text = await res.text().catch(() => "");
  return new Error(`${vendor} answered ${res.status}: ${text.slice(0, 300)}`);
}
