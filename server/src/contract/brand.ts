/**
 * The operator's brand (issue 35 item 9, docs/decisions/289): product name, logo and accent colours, kept in the site
 * setting `brand` beside the default language (contract/locales.ts). Import-free (docs/decisions/050): the consumer
 * builds its theme from it.
 */

/** The site setting that holds the brand. */
export const BRAND_SETTING = "brand";

export interface Brand {
  name: string;
  /** a site media key (`site/brand/...`) or null: no logo, the name is shown as the logo */
  logo: string | null;
  primary: string;
  secondary: string;
}

/** Today's look: every brand field an operator has not set. */
export const DEFAULT_BRAND: Brand = { name: "Reverie", logo: null, primary: "#a78bfa", secondary: "#f472b6" };

/** The page background both accents are read on (the consumer app is dark). */
export const PAGE_BACKGROUND = "#0b0b12";
/** WCAG 2.x level AA for normal text. */
export const MIN_CONTRAST = 4.5;
export const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;

/** WCAG relative luminance of `#rrggbb`. */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG contrast ratio of two `#rrggbb` colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}
