import { PIXEL_EVENTS, PIXEL_FLAGS, PIXEL_KIND_KEYS, type PixelEventName, type PixelKind } from "../../../../server/src/contract/pixels.ts";
import { api } from "../../lib/api-client.ts";
import { clickIdCookie, storage } from "../../lib/storage.ts";
import { createStore } from "../../lib/store.ts";
import { consent } from "../consent/consent.ts";
import { firePixel, loadScript } from "./delivery.ts";
import { deviceFingerprint } from "./fingerprint.ts";
import { cached } from "./pixel-cache.ts";
import { rememberDeviceId } from "./device-id.ts";
import { VENDOR_LOADERS } from "./vendors/index.ts";
import type { PixelEventData, PixelVendor, SentCall, VendorContext } from "./vendors/vendor.ts";

/** Where one vendor stands on this page (the test pages show it). */
export interface VendorStatus {
  kind: PixelKind;
  switchOn: boolean;
  ids: string[];
  script: "off" | "no_ids" | "loading" | "loaded" | "failed" | "no_script";
  attempts: number;
}

export interface RuntimeState {
  channel: string;
  started: boolean;
  vendors: VendorStatus[];
  sent: Array<SentCall & { at: number }>;
}

export const runtimeState = createStore<RuntimeState>({ channel: "", started: false, vendors: [], sent: [] });

function patchVendor(kind: PixelKind, next: Partial<VendorStatus>): void {
  const s = runtimeState.get();
  runtimeState.set({ ...s, vendors: s.vendors.map((v) => (v.kind === kind ? { ...v, ...next } : v)) });
}

const SENT_KEPT = 100;
function recordSent(call: SentCall): void {
  const s = runtimeState.get();
  runtimeState.set({ ...s, sent: [...s.sent, { ...call, at: Date.now() }].slice(-SENT_KEPT) });
}

function channelCode(): string {
  return storage.get("channel_id") ?? "";
}

function pixelList(channel: string, type: number, event?: PixelEventName): Promise<string[]> {
  return cached(`list|${channel}|${type}|${event ?? ""}`, () =>
    api.get("/api/pixelcollect/pixelList", { query: { type, channel_id: channel, pixel_event: event }, quiet: true }),
  );
}

const active: Array<{ vendor: PixelVendor; ctx: VendorContext }> = [];
let startOnce: Promise<void> | null = null;

/**
 * Reads the channel's switches and ids (5-minute cache), then starts every vendor that is on and has ids. Each
 * vendor loads on its own; none waits for another, and a failure only marks that vendor as failed.
 */
async function boot(): Promise<void> {
  const channel = channelCode();
  const [config, switches] = await Promise.all([
    cached("config", () => api.get("/api/pixelcollect/config", { quiet: true })),
    cached(`state|${channel}`, () => api.get("/api/Pixelcollect/getpixeLState", { query: { channel_id: channel }, quiet: true })),
  ]);
  const base = config.script_base_url?.replace(/\/+$/, "") || null;
  const url = (host: string, path: string) => (base ? `${base}/${host}${path}` : `https://${host}${path}`);
  runtimeState.set({
    ...runtimeState.get(),
    channel,
    started: true,
    vendors: PIXEL_KIND_KEYS.map((kind, i) => ({ kind, switchOn: switches[PIXEL_FLAGS[i][1]] === 1, ids: [], script: "off", attempts: 0 })),
  });
  const deviceId = await deviceFingerprint();
  rememberDeviceId(deviceId);

  await Promise.all(
    PIXEL_KIND_KEYS.map(async (kind, i) => {
      const type = i + 1;
      if (switches[PIXEL_FLAGS[i][1]] !== 1) return;
      // Google Ads ids are configured per event; the vendor needs all of them to know its accounts
      const ids =
        kind === "google_ads" ? [...new Set((await Promise.all(PIXEL_EVENTS.map((e) => pixelList(channel, type, e)))).flat())] : await pixelList(channel, type);
      if (!ids.length) return patchVendor(kind, { script: "no_ids" });
      const vendor = await VENDOR_LOADERS[kind]().catch(() => null);
      if (!vendor) return patchVendor(kind, { script: "failed" });
      const ctx: VendorContext = {
        ids,
        idsFor: (event) => pixelList(channel, type, event),
        url,
        loadScript: (src, attrs) => loadScript(src, attrs, (attempts) => patchVendor(kind, { attempts })),
        firePixel,
        clickId: (name) => (name === "bemob" ? clickIdCookie() : name === "exoclick" ? storage.get("exo_click_id") : storage.get("cid")),
        deviceId,
        sent: (call) => recordSent({ kind, ...call }),
      };
      active.push({ vendor, ctx });
      patchVendor(kind, { ids, script: vendor.hasScript ? "loading" : "no_script" });
      vendor.init(ctx).then(
        () => vendor.hasScript && patchVendor(kind, { script: "loaded" }),
        () => patchVendor(kind, { script: "failed" }),
      );
    }),
  );
}

/** Starts the pixels once; the events queued before (the landing page view among them) go out right after. */
export function start(queued: Array<[PixelEventName, PixelEventData]>): Promise<void> {
  startOnce ??= boot().catch(() => {
    // the switches could not be read: no pixel on this page, and nothing else changes
  });
  return startOnce.then(() => {
    for (const [event, data] of queued) track(event, data);
  });
}

/** Sends one event to every started vendor; a vendor that throws is skipped, the page never sees it. */
export function track(event: PixelEventName, data: PixelEventData = {}): void {
  if (!consent.allows("advertising")) return;
  for (const { vendor, ctx } of active) {
    try {
      void Promise.resolve(vendor.track(event, data, ctx)).catch(() => undefined);
    } catch {
      // a vendor's own code failed; the others and the page carry on
    }
  }
}
