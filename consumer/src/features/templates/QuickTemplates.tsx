import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { TEMPLATE_CATEGORIES, type TemplateCategory } from "../../../../server/src/contract/templates.ts";
import type { Template } from "./templates.api.ts";
import { useTemplates } from "./useTemplates.ts";
import { TemplateCard } from "./TemplateCard.tsx";
import { STUDIO_MODES } from "../../../../server/src/contract/generation.ts";

/** SPEC.md §2 quick templates of the creation studio, grouped Portrait, Lifestyle, Creative. */
export function QuickTemplates({ selectedId, onChoose }: { selectedId: number | null; onChoose: (t: Template) => void }) {
  const { t } = useTranslation();
  const { templates, category, setCategory, inCategory } = useTemplates();
  const shown = (templates ?? []).filter((tpl) => (STUDIO_MODES as readonly string[]).includes(tpl.mode) && inCategory(tpl)).slice(0, 9);
  return (
    <Paper sx={{ p: { xs: 2.5, md: 3 }, borderRadius: 5 }} data-testid="quick-templates">
      <Typography variant="h6">{t("studio.quickTemplates")}</Typography>
      {/* each tab as wide as its word, the rest shared out: a long word (ko 크리에이티브, never broken inside) is not clipped at 360 px */}
      <Tabs
        value={category}
        onChange={(_e, v: TemplateCategory) => setCategory(v)}
        sx={{ mb: 2, "& .MuiTab-root": { flex: "1 1 auto", minWidth: 0, px: 1 } }}
        variant="fullWidth"
      >
        {TEMPLATE_CATEGORIES.map((c) => (
          <Tab key={c} value={c} label={t(`templates.category.${c}`)} data-testid={`quick-${c}`} />
        ))}
      </Tabs>
      <Box sx={{ display: "grid", gridTemplateColumns: "repeat(3, 1fr)", gap: 1.25 }}>
        {templates === null
          ? Array.from({ length: 6 }, (_, i) => <Skeleton key={i} variant="rounded" sx={{ aspectRatio: "3 / 4", height: "auto", borderRadius: 3 }} />)
          : shown.map((tpl) => <TemplateCard key={tpl.id} template={tpl} selected={tpl.id === selectedId} onClick={() => onChoose(tpl)} />)}
      </Box>
      {templates !== null && shown.length === 0 && (
        <Typography color="text.secondary" variant="body2" sx={{ py: 3, textAlign: "center" }}>
          {t("templates.none")}
        </Typography>
      )}
    </Paper>
  );
}
