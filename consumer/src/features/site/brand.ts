import { type Brand, DEFAULT_BRAND } from "../../../../server/src/contract/brand.ts";
import { DEFAULT_LANGUAGE, type Language } from "../../../../server/src/contract/locales.ts";
import { api } from "../../lib/api-client.ts";

export type ShownBrand = Brand & { language: Language; logo_url: string | null; watermark: boolean };

// the watermark is on until the operator turns it off (decision 296)
let brand: ShownBrand = { ...DEFAULT_BRAND, language: DEFAULT_LANGUAGE, logo_url: null, watermark: true };

/** The operator's brand as loaded at start (docs/decisions/289); today's look until then, or when the call fails. */
export const currentBrand = (): ShownBrand => brand;

/**
 * The product name is written "Reverie" in the locale files, the page title and the manifest; wherever it appears
 * it stands for the operator's product name, so the texts need no placeholder and no rebuild to follow the brand.
 */
export function withBrandName(text: string): string {
  return brand.name === DEFAULT_BRAND.name ? text : text.replaceAll(DEFAULT_BRAND.name, brand.name);
}

/** Asked once at start, beside the router's first data; the page title follows at once. */
export async function loadBrand(): Promise<ShownBrand> {
  try {
    brand = (await api.get("/api/Index/basicSettings", { quiet: true })).brand;
  } catch {
    // no answer: the app keeps today's look rather than not starting
  }
  document.title = withBrandName(document.title);
  return brand;
}
