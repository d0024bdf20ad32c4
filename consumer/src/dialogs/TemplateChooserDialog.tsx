import { useState } from "react";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import IconButton from "@mui/material/IconButton";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import Typography from "@mui/material/Typography";
import CloseIcon from "@mui/icons-material/Close";
import { useTranslation } from "react-i18next";
import { TEMPLATE_CATEGORIES, type TemplateCategory } from "../../../server/src/contract/templates.ts";
import type { Template } from "../features/templates/templates.api.ts";
import { useTemplates } from "../features/templates/useTemplates.ts";
import { TemplateCard } from "../features/templates/TemplateCard.tsx";
import type { GenerationMode } from "../../../server/src/contract/generation.ts";

/** SPEC.md §2 template chooser, loaded only when opened. */
export default function TemplateChooserDialog({
  mode,
  selectedId,
  onChoose,
  onClose,
}: {
  mode: GenerationMode;
  selectedId: number | null;
  onChoose: (t: Template) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { templates, category, setCategory } = useTemplates();
  const [tabChosen, setTabChosen] = useState(false);
  const ofMode = (templates ?? []).filter((tpl) => tpl.mode === mode);
  const named = (c: string) => TEMPLATE_CATEGORIES.find((k) => k.toLowerCase() === c.toLowerCase());
  // it opens on the chosen template's tab, else the first tab with templates for this mode (video to video has no
  // Portrait ones: it opened on an empty tab, issue 46 item 11); a tab the person picks stays
  const opening =
    named(ofMode.find((tpl) => tpl.id === selectedId)?.category ?? "") ?? TEMPLATE_CATEGORIES.find((c) => ofMode.some((tpl) => named(tpl.category) === c));
  const tab = tabChosen ? category : (opening ?? category);
  const shown = ofMode.filter((tpl) => named(tpl.category) === tab);
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth data-testid="template-chooser">
      <DialogTitle sx={{ pr: 6 }}>
        {t("templates.choose")}
        <IconButton onClick={onClose} aria-label={t("common.close")} sx={{ position: "absolute", right: 12, top: 12 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <Tabs
        value={tab}
        onChange={(_e, v: TemplateCategory) => {
          setTabChosen(true);
          setCategory(v);
        }}
        sx={{ px: { xs: 1, sm: 3 }, "& .MuiTab-root": { minWidth: 0, px: 1.5 } }}
      >
        {TEMPLATE_CATEGORIES.map((c) => (
          <Tab key={c} value={c} label={t(`templates.category.${c}`)} data-testid={`category-${c}`} />
        ))}
      </Tabs>
      <DialogContent>
        {templates === null ? (
          <Box sx={{ display: "grid", placeItems: "center", py: 8 }}>
            <CircularProgress />
          </Box>
        ) : shown.length === 0 ? (
          <Typography color="text.secondary" sx={{ py: 6, textAlign: "center" }}>
            {t("templates.none")}
          </Typography>
        ) : (
          <Box sx={{ display: "grid", gridTemplateColumns: { xs: "repeat(2, 1fr)", sm: "repeat(3, 1fr)", md: "repeat(4, 1fr)" }, gap: 1.5 }}>
            {shown.map((tpl) => (
              <TemplateCard key={tpl.id} template={tpl} selected={tpl.id === selectedId} onClick={() => onChoose(tpl)}>
                {/* not on sale while it cannot run: no price */}
                {tpl.available !== false && (
                  <Chip
                    size="small"
                    label={t("templates.price", { count: tpl.credit_price })}
                    sx={{ position: "absolute", top: 8, right: 8, bgcolor: "rgba(0,0,0,0.6)" }}
                  />
                )}
              </TemplateCard>
            ))}
          </Box>
        )}
      </DialogContent>
    </Dialog>
  );
}
