import { createTheme } from "@mui/material/styles";
import { type Brand, contrastRatio, DEFAULT_BRAND, MIN_CONTRAST, PAGE_BACKGROUND } from "../../server/src/contract/brand.ts";

const DEFAULT_GRADIENT = "linear-gradient(135deg, #8b5cf6 0%, #d946ef 55%, #ec4899 100%)";

/**
 * The accent for anything that creates. A CSS variable, so the operator's colours (docs/decisions/289) reach every
 * use, the build's prerendered landing included, without the modules that use it knowing the brand; unset, today's
 * violet-to-pink.
 */
export const accentGradient = `var(--accent-gradient, ${DEFAULT_GRADIENT})`;

const isDefault = (b: Brand) => b.primary === DEFAULT_BRAND.primary && b.secondary === DEFAULT_BRAND.secondary;

/** The operator's accent: from the primary colour to the secondary; today's gradient for today's colours. */
export function gradientOf(b: Brand): string {
  return isDefault(b) ? DEFAULT_GRADIENT : `linear-gradient(135deg, ${b.primary} 0%, ${b.secondary} 100%)`;
}

/** Text on the accent: white where it reads on both colours, else the page colour (the server's check ensures that reads). */
function onAccent(b: Brand): string {
  if (isDefault(b)) return "#fff";
  const white = Math.min(contrastRatio("#ffffff", b.primary), contrastRatio("#ffffff", b.secondary));
  return white >= MIN_CONTRAST ? "#fff" : PAGE_BACKGROUND;
}

/** Reverie's dark look: near-black surfaces, the brand's accent; default brand = exactly the look before brands. */
export const themeFor = (brand: Brand) =>
  createTheme({
    palette: {
      mode: "dark",
      primary: { main: brand.primary, contrastText: PAGE_BACKGROUND },
      secondary: { main: brand.secondary },
      background: { default: PAGE_BACKGROUND, paper: "#14141f" },
      divider: "rgba(255,255,255,0.08)",
      text: { primary: "#ecebf5", secondary: "#a3a1b8" },
      success: { main: "#34d399" },
      warning: { main: "#fbbf24" },
      error: { main: "#f87171" },
    },
    // sx radii are multiples of this (borderRadius: 3 = 12px)
    shape: { borderRadius: 4 },
    typography: {
      fontFamily: '"Inter", system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans JP", "Noto Sans KR", sans-serif',
      h1: { fontWeight: 800, letterSpacing: "-0.03em" },
      h2: { fontWeight: 800, letterSpacing: "-0.02em" },
      h3: { fontWeight: 700, letterSpacing: "-0.02em" },
      h4: { fontWeight: 700 },
      h5: { fontWeight: 700 },
      h6: { fontWeight: 600 },
      button: { textTransform: "none", fontWeight: 600 },
    },
    components: {
      // Korean breaks lines between words (at spaces), not inside them; a word wider than its line may still break
      MuiCssBaseline: {
        styleOverrides: {
          "html:lang(ko)": { wordBreak: "keep-all", overflowWrap: "break-word" },
          ...(isDefault(brand) ? {} : { ":root": { "--accent-gradient": gradientOf(brand) } }),
        },
      },
      MuiButton: {
        defaultProps: { disableElevation: true },
        styleOverrides: {
          root: { borderRadius: 999, paddingInline: 20 },
          containedPrimary: {
            background: accentGradient,
            color: onAccent(brand),
            "&:hover": { background: accentGradient, filter: "brightness(1.08)" },
            "&.Mui-disabled": { background: "rgba(255,255,255,0.12)", color: "rgba(255,255,255,0.4)" },
          },
        },
      },
      MuiPaper: { styleOverrides: { root: { backgroundImage: "none" } } },
      MuiDialog: { styleOverrides: { paper: { border: "1px solid rgba(255,255,255,0.08)", borderRadius: 20 } } },
      MuiCard: { styleOverrides: { root: { border: "1px solid rgba(255,255,255,0.06)" } } },
      MuiChip: { styleOverrides: { root: { fontWeight: 600 } } },
      MuiLink: { defaultProps: { underline: "hover" } },
      MuiOutlinedInput: { styleOverrides: { root: { borderRadius: 12 } } },
      MuiToggleButtonGroup: { styleOverrides: { root: { borderRadius: 10 } } },
      MuiToggleButton: { styleOverrides: { root: { borderRadius: 10, textTransform: "none", fontWeight: 600 } } },
      MuiMenu: { styleOverrides: { paper: { borderRadius: 12, border: "1px solid rgba(255,255,255,0.08)" } } },
      MuiAlert: { styleOverrides: { root: { borderRadius: 12 } } },
    },
  });

/** The build's theme (the prerendered landing) and the app's until the brand is loaded. */
export const theme = themeFor(DEFAULT_BRAND);
