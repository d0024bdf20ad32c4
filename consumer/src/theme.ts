import { createTheme } from "@mui/material/styles";

/** Reverie's dark look: near-black surfaces, a violet-to-pink accent for anything that creates. */
export const accentGradient = "linear-gradient(135deg, #8b5cf6 0%, #d946ef 55%, #ec4899 100%)";

export const theme = createTheme({
  palette: {
    mode: "dark",
    primary: { main: "#a78bfa", contrastText: "#0b0b12" },
    secondary: { main: "#f472b6" },
    background: { default: "#0b0b12", paper: "#14141f" },
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
    MuiCssBaseline: { styleOverrides: { "html:lang(ko)": { wordBreak: "keep-all", overflowWrap: "break-word" } } },
    MuiButton: {
      defaultProps: { disableElevation: true },
      styleOverrides: {
        root: { borderRadius: 999, paddingInline: 20 },
        containedPrimary: {
          background: accentGradient,
          color: "#fff",
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
