import { useEffect, useState } from "react";
import Box from "@mui/material/Box";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import { useTranslation } from "react-i18next";
import { GALLERY_SORTS, GENERATION_MODES, type GallerySort, type GenerationMode } from "../../../../server/src/contract/generation.ts";
import { getTemplates, inLanguage, type Template } from "../templates/templates.api.ts";
import type { GalleryFilter } from "./gallery.api.ts";

/** The modes a person picks in the studio (a role video is an image to video made with one's own model). */
const FILTER_MODES = GENERATION_MODES.filter((m) => m !== "role_video");

/** The gallery's order (new, popular this week) and its filters by mode and template. */
export function GalleryControls({ value, onChange }: { value: GalleryFilter; onChange: (f: GalleryFilter) => void }) {
  const { t, i18n } = useTranslation();
  const [templates, setTemplates] = useState<Template[]>([]);
  useEffect(() => {
    getTemplates()
      .then(setTemplates)
      .catch(() => setTemplates([]));
  }, []);
  const shownTemplates = templates.filter((tpl) => !value.mode || tpl.mode === value.mode);
  return (
    <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr 1fr", sm: "auto 200px 200px" }, gap: 1.5, mb: 2, alignItems: "center" }}>
      <ToggleButtonGroup
        exclusive
        size="small"
        value={value.sort}
        onChange={(_e, v: GallerySort | null) => v && onChange({ ...value, sort: v })}
        sx={{ gridColumn: { xs: "1 / -1", sm: "auto" } }}
        data-testid="gallery-sort"
      >
        {GALLERY_SORTS.map((s) => (
          <ToggleButton key={s} value={s} data-testid={`gallery-sort-${s}`} sx={{ px: 2, flex: { xs: 1, sm: "none" } }}>
            {t(`gallery.sort.${s}`)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <TextField
        select
        size="small"
        label={t("gallery.mode")}
        value={value.mode ?? ""}
        onChange={(e) => onChange({ ...value, mode: (e.target.value || undefined) as GenerationMode | undefined, template_id: undefined })}
        slotProps={{ htmlInput: { "data-testid": "gallery-mode" } }}
      >
        <MenuItem value="">{t("gallery.allModes")}</MenuItem>
        {FILTER_MODES.map((m) => (
          <MenuItem key={m} value={m}>
            {t(`modes.${m}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={t("gallery.template")}
        value={value.template_id ?? ""}
        onChange={(e) => onChange({ ...value, template_id: Number(e.target.value) || undefined })}
        slotProps={{ htmlInput: { "data-testid": "gallery-template" } }}
      >
        <MenuItem value="">{t("gallery.allTemplates")}</MenuItem>
        {shownTemplates.map((tpl) => (
          <MenuItem key={tpl.id} value={tpl.id}>
            {inLanguage(tpl.name, tpl.names, i18n.language)}
          </MenuItem>
        ))}
      </TextField>
    </Box>
  );
}
