import { purchaseEventId, type PixelEventName } from "../../../../server/src/contract/pixels.ts";
import { minorToDecimal } from "../../../../server/src/domains/products/money.ts";
import { afterFirstPaint } from "../../lib/after-paint.ts";
import { api } from "../../lib/api-client.ts";
import { storage } from "../../lib/storage.ts";
import { consent } from "../consent/consent.ts";
import type { PixelEventData } from "./vendors/vendor.ts";

/**
 * The part of the pixels that ships with the first load: a queue. The vendors' code (runtime.ts) is fetched only
 * after the first paint and only once the visitor allowed advertising; events before that wait in the queue.
 */
type Runtime = typeof import("./runtime.ts");

const QUEUE_MAX = 20;
const queue: Array<[PixelEventName, PixelEventData]> = [];
let runtime: Promise<Runtime> | null = null;
let painted = false;

/** SPEC.md §4: the first-open event goes about 2 s after start. */
export const FIRST_OPEN_DELAY_MS = 2_000;

export function loadRuntime(): Promise<Runtime> | null {
  if (runtime || !painted || !consent.allows("advertising")) return runtime;
  runtime = import("./runtime.ts").then(async (r) => {
    await r.start(queue.splice(0));
    return r;
  });
  runtime.catch(() => {
    // the chunk could not be fetched (offline, deployment in between): pixels stay off on this page
  });
  return runtime;
}

export function trackPixel(event: PixelEventName, data: PixelEventData = {}): void {
  if (!runtime) {
    if (queue.length < QUEUE_MAX) queue.push([event, data]);
    return;
  }
  void runtime.then((r) => r.track(event, data)).catch(() => undefined);
}

/** Our own record of an app start (first-party analytics), with the consent it was sent under. */
function scheduleFirstOpen(): void {
  let sent = false;
  const send = () => {
    if (sent || !consent.allows("analytics")) return;
    sent = true;
    void api.post("/api/pixelcollect/add", { event: "first_open", consent: consent.summary(), app_version: storage.get("app_version") ?? undefined, path: window.location.pathname }, { quiet: true }).catch(() => undefined);
  };
  setTimeout(() => {
    send();
    consent.subscribe(send);
  }, FIRST_OPEN_DELAY_MS);
}

export function startPixels(): void {
  afterFirstPaint(() => {
    painted = true;
    loadRuntime();
  });
  let startedWith = consent.allows("advertising");
  consent.subscribe(() => {
    const now = consent.allows("advertising");
    // a withdrawn consent cannot unload vendor scripts already running: a fresh page has none
    if (startedWith && !now && runtime) window.location.reload();
    startedWith = now;
    if (now) loadRuntime();
  });
  scheduleFirstOpen();
}

/** Set by the runtime once it has the device fingerprint, so the server's conversion matches the pixel's external_id. */
let lastDeviceId: string | null = null;
export function rememberDeviceId(id: string | null): void {
  lastDeviceId = id;
}

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
    device_id: lastDeviceId,
    page_url: window.location.href,
  };
  await api.post("/api/pixelcollect/add", { event: "payment_add", order_id: orderId, consent: consent.summary(), context }, { quiet: true, timeoutMs: CHECKOUT_REPORT_WAIT_MS }).catch(() => undefined);
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
    const { first } = await api.post<{ first: boolean }>("/api/Order/orderActionLog", { order_id: orderId, pixel_id: "browser" }, { quiet: true });
    storage.setJson("purchases_reported", [...done, key].slice(-50));
    if (!first) return;
    const order = await api.get<{ final_price: number; currency: string }>("/api/Order/getOrderInfo", { query: { order_id: orderId }, quiet: true });
    trackPixel("order", { value: Number(minorToDecimal(order.final_price, order.currency)), currency: order.currency, order_id: orderId, event_id: purchaseEventId(orderId) });
  } catch {
    // not recorded: the next paid answer for this order tries again
  }
}
