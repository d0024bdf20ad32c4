import { useState, type ReactNode } from "react";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import AutoAwesomeIcon from "@mui/icons-material/AutoAwesome";
import { useTranslation } from "react-i18next";
import { IMAGE_MODES } from "../../../../server/src/contract/generation.ts";
import { inLanguage, type Template } from "./templates.api.ts";

const PICTURE_MODES = new Set<string>(IMAGE_MODES);

/**
 * A template as a tall cover card; used by the chooser and the studio's quick templates. Its preview — what the engine
 * made of the project's sample picture — plays while the card is hovered or focused, and once it is chosen (a tap on a
 * phone); nothing of it loads before that.
 */
export function TemplateCard({ template, selected, onClick, children }: { template: Template; selected: boolean; onClick: () => void; children?: ReactNode }) {
  const { t, i18n } = useTranslation();
  const unavailable = template.available === false;
  const [pointed, setPointed] = useState(false);
  const preview = (pointed || selected) && template.preview_url ? template.preview_url : null;
  const previewIsImage = PICTURE_MODES.has(template.mode);
  return (
    <Box
      onPointerEnter={() => setPointed(true)}
      onPointerLeave={() => setPointed(false)}
      onFocus={() => setPointed(true)}
      onBlur={() => setPointed(false)}
      component="button"
      type="button"
      onClick={onClick}
      disabled={unavailable}
      data-testid={`template-${template.id}`}
      aria-pressed={selected}
      sx={{
        position: "relative",
        aspectRatio: "3 / 4",
        borderRadius: 3,
        overflow: "hidden",
        p: 0,
        cursor: unavailable ? "not-allowed" : "pointer",
        opacity: unavailable ? 0.55 : 1,
        border: "2px solid",
        borderColor: selected ? "primary.main" : "transparent",
        bgcolor: "#1c1c2b",
        color: "#fff",
        font: "inherit",
        textAlign: "left",
        transition: "transform .15s, border-color .15s",
        "&:hover": { transform: "translateY(-2px)" },
      }}
    >
      {template.cover_url ? (
        <Box component="img" src={template.cover_url} alt="" loading="lazy" sx={{ width: "100%", height: "100%", objectFit: "cover", display: "block" }} />
      ) : (
        <Box sx={{ width: "100%", height: "100%", display: "grid", placeItems: "center", background: "linear-gradient(160deg,#2a1f4d,#4a1d3f)" }}>
          <AutoAwesomeIcon sx={{ fontSize: 40, opacity: 0.7 }} />
        </Box>
      )}
      {preview &&
        (previewIsImage ? (
          <Box
            component="img"
            src={preview}
            alt=""
            data-testid="template-preview"
            sx={{ position: "absolute", inset: 0, width: "100%", height: "100%", objectFit: "cover" }}
          />
        ) : (
          <Box
            component="video"
            src={preview}
            autoPlay
            muted
            loop
            playsInline
            data-testid="template-preview"
            sx={{ position: "absolute", inset: 0, width: "100%", height: "100%", objectFit: "cover" }}
          />
        ))}
      <Box sx={{ position: "absolute", left: 0, right: 0, bottom: 0, p: 1.25, background: "linear-gradient(transparent, rgba(0,0,0,0.85))" }}>
        <Typography
          variant="body2"
          fontWeight={700}
          sx={{ display: "-webkit-box", WebkitLineClamp: 2, WebkitBoxOrient: "vertical", overflow: "hidden", overflowWrap: "anywhere", lineHeight: 1.25 }}
        >
          {inLanguage(template.name, template.names, i18n.language)}
        </Typography>
        {unavailable && (
          <Typography variant="caption" data-testid="template-unavailable">
            {t("templates.unavailable")}
          </Typography>
        )}
      </Box>
      {children}
    </Box>
  );
}
