import { useEffect, useState } from "react";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { PriceClaim } from "../payments/PriceClaim.tsx";
import { getBanners, inLanguage, type Banner } from "../templates/templates.api.ts";

/** The band the app writes over a banner's picture: its caption, or the live price claim. */
const captionSx = { position: "absolute", left: 0, right: 0, bottom: 0, px: 2, py: 1, bgcolor: "rgba(0,0,0,0.55)", color: "#fff", fontWeight: 700 } as const;

/**
 * The home banners, scrolled sideways. Pictures carry no words: the caption is written over them in the visitor's
 * language (English where staff gave none, docs/decisions/295), so it follows a language switch and wraps on a phone.
 */
export function Banners() {
  const { i18n } = useTranslation();
  const [banners, setBanners] = useState<Banner[]>([]);

  useEffect(() => {
    getBanners()
      .then(setBanners)
      .catch(() => setBanners([]));
  }, []);

  if (banners.length === 0) return null;
  return (
    <Box sx={{ display: "flex", gap: 2, overflowX: "auto", py: 4, scrollSnapType: "x mandatory" }} data-testid="banners">
      {banners.map((b) => {
        const caption = inLanguage(b.title, b.titles, i18n.language);
        return (
          <Box
            key={b.id}
            component={b.link ? "a" : "div"}
            href={b.link ?? undefined}
            sx={{
              flex: "0 0 auto",
              width: { xs: "85%", md: 560 },
              // the banners' own shape (seeded at 1200 x 400): a narrower box cropped the picture at both ends
              aspectRatio: "3 / 1",
              borderRadius: 4,
              overflow: "hidden",
              scrollSnapAlign: "start",
              position: "relative",
              display: "block",
            }}
          >
            <Box component="img" src={b.image_url} alt={caption} loading="lazy" sx={{ width: "100%", height: "100%", objectFit: "cover" }} />
            {b.shows_prices ? (
              // the claim is written by the app from the configured prices, never baked into the picture
              <PriceClaim variant="subtitle2" sx={captionSx} />
            ) : (
              <Typography variant="subtitle2" sx={captionSx} data-testid="banner-caption">
                {caption}
              </Typography>
            )}
          </Box>
        );
      })}
    </Box>
  );
}
