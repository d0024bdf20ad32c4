import { storage } from "../../lib/storage.ts";

/** SPEC.md §9: switch states and conversion ids are kept 5 minutes, so a console change reaches visitors within that. */
export const PIXEL_CACHE_MS = 5 * 60_000;

type Entries = Record<string, { at: number; value: unknown }>;

/** The cached answer for `key`, or a fresh one from `load` (kept only when it succeeded). */
export async function cached<T>(key: string, load: () => Promise<T>, now = Date.now()): Promise<T> {
  const entries = storage.getJson<Entries>("pixel_cache") ?? {};
  const hit = entries[key];
  if (hit && now - hit.at >= 0 && now - hit.at < PIXEL_CACHE_MS) return hit.value as T;
  const value = await load();
  const fresh = storage.getJson<Entries>("pixel_cache") ?? {};
  for (const [k, e] of Object.entries(fresh)) if (now - e.at >= PIXEL_CACHE_MS) delete fresh[k];
  fresh[key] = { at: now, value };
  storage.setJson("pixel_cache", fresh);
  return value;
}
