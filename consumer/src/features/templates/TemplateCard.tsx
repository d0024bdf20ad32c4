import type { ReactNode } from "react";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import AutoAwesomeIcon from "@mui/icons-material/AutoAwesome";
import { useTranslation } from "react-i18next";
import { inLanguage, type Template } from "./templates.api.ts";

/** A template as a tall cover card; used by the chooser and the studio's quick templates. */
export function TemplateCard({ template, selected, onClick, children }: { template: Template; selected: boolean; onClick: () => void; children?: ReactNode }) {
  const { i18n } = useTranslation();
  return (
    <Box
      component="button"
      type="button"
      onClick={onClick}
      data-testid={`template-${template.id}`}
      aria-pressed={selected}
      sx={{
        position: "relative",
        aspectRatio: "3 / 4",
        borderRadius: 3,
        overflow: "hidden",
        p: 0,
        cursor: "pointer",
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
      <Box sx={{ position: "absolute", left: 0, right: 0, bottom: 0, p: 1.25, background: "linear-gradient(transparent, rgba(0,0,0,0.85))" }}>
        <Typography variant="body2" fontWeight={700} noWrap>{inLanguage(template.name, template.names, i18n.language)}</Typography>
      </Box>
      {children}
    </Box>
  );
}
