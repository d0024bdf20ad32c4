import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import BoltIcon from "@mui/icons-material/Bolt";
import { useTranslation } from "react-i18next";
import { dialogs } from "../../dialogs/dialog-store.ts";
import { PriceClaim } from "../payments/PriceClaim.tsx";
import { accentGradient } from "../../theme.ts";

function HeroArt() {
  // a pure-CSS stack of "video cards": no image to wait for, so the headline stays the largest paint; no backdrop
  // filter and short shadow blurs: the first contentful paint waits for rasterising them (decision 044)
  const cards = [
    { rotate: -10, x: -70, y: 18, g: "linear-gradient(160deg,#312e81,#9d174d)" },
    { rotate: 8, x: 70, y: 10, g: "linear-gradient(160deg,#1e3a8a,#7c3aed)" },
    { rotate: 0, x: 0, y: 0, g: "linear-gradient(160deg,#6d28d9,#db2777 70%,#f59e0b)" },
  ];
  return (
    <Box aria-hidden sx={{ position: "relative", height: { xs: 260, md: 380 }, display: "grid", placeItems: "center" }}>
      <Box
        sx={{
          position: "absolute",
          width: "80%",
          height: "80%",
          borderRadius: "50%",
          background: "radial-gradient(circle, rgba(168,85,247,0.35), transparent 65%)",
        }}
      />
      {cards.map((c, i) => (
        <Box
          key={i}
          sx={{
            position: "absolute",
            width: { xs: 130, md: 190 },
            aspectRatio: "9 / 16",
            borderRadius: 4,
            background: c.g,
            boxShadow: "0 16px 32px rgba(0,0,0,.5)",
            border: "1px solid rgba(255,255,255,.15)",
            display: "grid",
            placeItems: "center",
          }}
          style={{ transform: `translate(${c.x}px, ${c.y}px) rotate(${c.rotate}deg)` }}
        >
          {i === 2 && (
            <Box sx={{ width: 56, height: 56, borderRadius: "50%", bgcolor: "rgba(255,255,255,.28)", display: "grid", placeItems: "center" }}>
              <Box
                sx={{
                  width: 0,
                  height: 0,
                  borderLeft: "18px solid #fff",
                  borderTop: "11px solid transparent",
                  borderBottom: "11px solid transparent",
                  ml: "5px",
                }}
              />
            </Box>
          )}
        </Box>
      ))}
    </Box>
  );
}

/**
 * The landing page's first screen (SPEC.md §2 home): headline, the guest "try" button and pricing. The build also
 * renders it into index.html (prerender.tsx), so it paints before any script has run (docs/decisions/213).
 */
export function LandingHero({ signedIn, busy = false, onTry }: { signedIn: boolean; busy?: boolean; onTry?: () => void }) {
  const { t } = useTranslation();
  return (
    <Box
      sx={{
        position: "relative",
        overflow: "hidden",
        borderBottom: 1,
        borderColor: "divider",
        background:
          "radial-gradient(1200px 500px at 80% -10%, rgba(139,92,246,0.22), transparent), radial-gradient(900px 400px at -10% 110%, rgba(236,72,153,0.14), transparent)",
      }}
    >
      <Box
        sx={{
          maxWidth: 1200,
          mx: "auto",
          px: { xs: 2.5, md: 3 },
          py: { xs: 5, md: 10 },
          display: "grid",
          gridTemplateColumns: { xs: "minmax(0, 1fr)", md: "minmax(0, 1.15fr) minmax(0, 1fr)" },
          gap: 4,
          alignItems: "center",
        }}
      >
        <Box>
          <Box
            sx={{
              display: "inline-flex",
              alignItems: "center",
              gap: 1,
              px: 1.5,
              py: 0.5,
              borderRadius: 999,
              border: 1,
              borderColor: "rgba(167,139,250,0.35)",
              bgcolor: "rgba(167,139,250,0.08)",
              mb: 2.5,
            }}
          >
            <BoltIcon sx={{ fontSize: 16, color: "secondary.main" }} />
            <Typography variant="caption" fontWeight={700}>
              {t("home.kicker")}
            </Typography>
          </Box>
          <Typography variant="h1" sx={{ fontSize: { xs: "clamp(28px, 8.5vw, 40px)", sm: 52, md: 64 }, lineHeight: 1.08, overflowWrap: "anywhere" }}>
            {t("home.titleStart")}{" "}
            <Box component="span" sx={{ background: accentGradient, WebkitBackgroundClip: "text", color: "transparent" }}>
              {t("home.titleAccent")}
            </Box>
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 2.5, fontSize: { xs: 16, md: 19 }, maxWidth: 520 }}>
            {t("home.subtitle")}
          </Typography>
          <Box sx={{ display: "flex", gap: 1.5, mt: 4, flexWrap: "wrap" }}>
            <Button variant="contained" size="large" onClick={onTry} disabled={busy} data-testid="try-guest" sx={{ px: 4, py: 1.5, fontSize: 17 }}>
              {signedIn ? t("home.startCreating") : t("home.tryFree")}
            </Button>
            <Button variant="outlined" size="large" onClick={() => dialogs.open("buyCredits")} sx={{ px: 3, py: 1.5 }} data-testid="home-pricing">
              {t("home.pricing")}
            </Button>
          </Box>
          <PriceClaim variant="body2" color="text.secondary" sx={{ mt: 2 }} />
        </Box>
        <HeroArt />
      </Box>
    </Box>
  );
}
