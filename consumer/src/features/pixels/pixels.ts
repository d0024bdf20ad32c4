import type { PixelEventName } from "../../../../server/src/contract/pixels.ts";
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
    void api
      .post(
        "/api/pixelcollect/add",
        { event: "first_open", consent: consent.summary(), app_version: storage.get("app_version") ?? undefined, path: window.location.pathname },
        { quiet: true },
      )
      .catch(() => undefined);
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
