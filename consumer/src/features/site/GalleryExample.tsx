import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { inLanguage, type Template } from "../templates/templates.api.ts";

/**
 * A template's preview loop standing in the gallery while few creations are shared (gallery-fill.ts): muted, looping,
 * marked as an example with the template's name, and a tap opens the studio with that template chosen. The gallery
 * mounts only near the viewport, so these loops never load with the first screen.
 */
export function GalleryExample({ template }: { template: Template }) {
  const { t, i18n } = useTranslation();
  const name = inLanguage(template.name, template.names, i18n.language);
  return (
    <Box
      component={RouterLink}
      to={`/creationStudio?template=${template.id}`}
      aria-label={t("gallery.example", { name })}
      data-testid="gallery-example"
      sx={{ position: "relative", aspectRatio: "9 / 14", borderRadius: 3, overflow: "hidden", bgcolor: "#1c1c2b", display: "block", color: "#fff" }}
    >
      <Box
        component="video"
        src={template.preview_url ?? undefined}
        poster={template.cover_url ?? undefined}
        autoPlay
        muted
        loop
        playsInline
        preload="metadata"
        sx={{ width: "100%", height: "100%", objectFit: "cover", display: "block" }}
      />
      <Box sx={{ position: "absolute", left: 0, right: 0, bottom: 0, p: 1.25, background: "linear-gradient(transparent, rgba(0,0,0,.8))" }}>
        <Typography variant="body2" fontWeight={700} noWrap>
          {t("gallery.example", { name })}
        </Typography>
      </Box>
    </Box>
  );
}
