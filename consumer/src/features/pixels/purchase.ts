import { purchaseEventId } from "../../../../server/src/contract/pixels.ts";
import { api } from "../../lib/api-client.ts";
import { storage } from "../../lib/storage.ts";
import { consent } from "../consent/consent.ts";
import { deviceId } from "./device-id.ts";
import { trackPixel } from "./pixels.ts";

/** Orders keep minor units; vendors want major units. The currency's own digits (JPY 0, USD 2) come from Intl. */
function majorUnits(minor: number, currency: string): number {
  const digits = new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return minor / 10 ** digits;
}

/*
 * The checkout and purchase reports, loaded only by the buy dialog and by a verification that ended paid, so
 * the first load does not carry them (docs/decisions/120, 121).
 */

/** The browser leaves for the payment provider right after checkout: the record gets this long, then it goes anyway. */
const CHECKOUT_REPORT_WAIT_MS = 1_500;

function cookie(name: string): string | null {
  const hit = document.cookie.split("; ").find((c) => c.startsWith(`${name}=`));
  return hit ? decodeURIComponent(hit.slice(name.length + 1)) : null;
}

/**
 * The checkout step: vendors' payment_add, and our own record of the click ids this order came with, which the
 * server's purchase conversion sends with the same event id (only with advertising consent).
 */
export async function reportCheckout(orderId: number | string): Promise<void> {
  trackPixel("payment_add", { order_id: orderId });
  if (!consent.allows("advertising")) return;
  const context = {
    fbclid: storage.get("fbclid"),
    ttclid: storage.get("ttclid"),
    gclid: storage.get("gclid"),
    fbp: cookie("_fbp"),
    device_id: deviceId(),
    page_url: window.location.href,
  };
  await api
    .post(
      "/api/pixelcollect/add",
      { event: "payment_add", order_id: orderId, consent: consent.summary(), context },
      { quiet: true, timeoutMs: CHECKOUT_REPORT_WAIT_MS },
    )
    .catch(() => undefined);
}

/**
 * SPEC.md §4: a paid order fires the purchase once. Tied to the order, not the page: remembered on the device,
 * and the server's orderActionLog answers `first` only once per order, so a reload during verification, a second
 * tab or another device cannot fire it again. The event id is the one the server's own conversion uses.
 */
export async function reportPurchase(orderId: number | string): Promise<void> {
  const key = String(orderId);
  const done = storage.getJson<string[]>("purchases_reported") ?? [];
  if (done.includes(key) || !consent.allows("advertising")) return;
  try {
    const { first } = await api.post("/api/Order/orderActionLog", { order_id: orderId, pixel_id: "browser" }, { quiet: true });
    storage.setJson("purchases_reported", [...done, key].slice(-50));
    if (!first) return;
    const order = await api.get("/api/Order/getOrderInfo", { query: { order_id: orderId }, quiet: true });
    trackPixel("order", {
      value: majorUnits(order.final_price, order.currency),
      currency: order.currency,
      order_id: orderId,
      event_id: purchaseEventId(orderId),
    });
  } catch {
    // not recorded: the next paid answer for this order tries again
  }
}
