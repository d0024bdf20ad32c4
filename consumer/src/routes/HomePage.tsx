import { Suspense, useState } from "react";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import AutoAwesomeIcon from "@mui/icons-material/AutoAwesome";
import MovieFilterIcon from "@mui/icons-material/MovieFilter";
import PhotoCameraIcon from "@mui/icons-material/PhotoCamera";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import { LandingHero } from "../features/landing/LandingHero.tsx";
import { session, useSession } from "../features/session/session.ts";
import { Banners } from "../features/site/Banners.tsx";
import { WhenNearViewport } from "../features/site/WhenNearViewport.tsx";
import { TemplateShowcase } from "../features/templates/TemplateShowcase.tsx";
import { useFlashSale } from "../features/site/useFlashSale.ts";
import { accentGradient } from "../theme.ts";
import { lazyView } from "../i18n/index.ts";

const FlashSaleDialog = lazyView(() => import("../dialogs/FlashSaleDialog.tsx"));
// the gallery names modes (its filter): it renders once the later translation groups are there
const Gallery = lazyView(() => import("../features/site/Gallery.tsx"));
const GalleryItemDialog = lazyView(() => import("../features/gallery/GalleryItemDialog.tsx"));

const STEPS = [
  { icon: PhotoCameraIcon, key: "photo" },
  { icon: AutoAwesomeIcon, key: "template" },
  { icon: MovieFilterIcon, key: "watch" },
] as const;

/** SPEC.md §2 home: the guest "try" button, banners, the gallery of public creations, the flash-sale popup. */
export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  const [busy, setBusy] = useState(false);
  const [flashSale, dismissFlashSale] = useFlashSale();
  // /home?item=ID opens one gallery item (a notification's link to what was liked or remixed)
  const [params, setParams] = useSearchParams();
  const linkedItem = Number(params.get("item")) || null;

  async function tryIt() {
    if (!user) {
      setBusy(true);
      try {
        await session.guestLogin();
      } catch {
        setBusy(false);
        return;
      }
    }
    navigate("/creationStudio");
  }

  return (
    <Box>
      <LandingHero signedIn={user !== null} busy={busy} onTry={() => void tryIt()} />

      <Box sx={{ maxWidth: 1200, mx: "auto", px: { xs: 2.5, md: 3 } }}>
        <Banners />

        <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "repeat(3, 1fr)" }, gap: 2, py: 5 }}>
          {STEPS.map(({ icon: Icon, key }, i) => (
            <Box key={key} sx={{ p: 3, borderRadius: 4, border: 1, borderColor: "divider", bgcolor: "background.paper" }}>
              <Box sx={{ display: "flex", alignItems: "center", gap: 1.5 }}>
                <Box sx={{ width: 40, height: 40, borderRadius: 2.5, display: "grid", placeItems: "center", background: accentGradient }}>
                  <Icon sx={{ color: "#fff" }} />
                </Box>
                <Typography variant="overline" color="text.secondary">
                  {t("home.step", { n: i + 1 })}
                </Typography>
              </Box>
              <Typography variant="h6" sx={{ mt: 1.5 }}>
                {t(`home.steps.${key}.title`)}
              </Typography>
              <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                {t(`home.steps.${key}.body`)}
              </Typography>
            </Box>
          ))}
        </Box>

        <TemplateShowcase />

        <Box sx={{ display: "flex", alignItems: "baseline", justifyContent: "space-between", mb: 2 }}>
          <Typography variant="h4" component="h2" data-testid="gallery-heading">
            {t("home.galleryTitle")}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t("home.galleryHint")}
          </Typography>
        </Box>
        <WhenNearViewport minHeight={320}>
          <Suspense fallback={null}>
            <Gallery />
          </Suspense>
        </WhenNearViewport>
      </Box>
      {linkedItem && (
        <Suspense fallback={null}>
          <GalleryItemDialog id={linkedItem} onClose={() => setParams({}, { replace: true })} onOpen={(id) => setParams({ item: String(id) })} />
        </Suspense>
      )}
      {flashSale && (
        <Suspense fallback={null}>
          <FlashSaleDialog product={flashSale} onClose={dismissFlashSale} />
        </Suspense>
      )}
    </Box>
  );
}
