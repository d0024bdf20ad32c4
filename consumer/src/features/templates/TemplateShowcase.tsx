import { useEffect, useState } from "react";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { getVideoTemplates, type Template } from "./templates.api.ts";
import { TemplateCard } from "./TemplateCard.tsx";

const SHOWN = 6;

/** Home: a row of motion templates; one click opens the studio with it chosen. Hidden when none exist. */
export function TemplateShowcase() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // null while loading: the place is held meanwhile, so what is below (the gallery, loaded when scrolled to) does not jump away
  const [templates, setTemplates] = useState<Template[] | null>(null);
  useEffect(() => {
    getVideoTemplates()
      .then((list) => setTemplates(list.slice(0, SHOWN)))
      .catch(() => setTemplates([]));
  }, []);
  if (templates === null) return <Box sx={{ minHeight: { xs: 520, md: 320 } }} aria-busy data-testid="template-showcase-loading" />;
  if (templates.length === 0) return null;
  return (
    <Box sx={{ pb: 5 }} data-testid="template-showcase">
      <Typography variant="h4" component="h2" sx={{ mb: 2 }}>
        {t("home.templatesTitle")}
      </Typography>
      <Box sx={{ display: "grid", gridTemplateColumns: { xs: "repeat(3, 1fr)", md: `repeat(${SHOWN}, 1fr)` }, gap: 1.5 }}>
        {templates.map((tpl) => (
          <TemplateCard key={tpl.id} template={tpl} selected={false} onClick={() => navigate(`/creationStudio?template=${tpl.id}`)} />
        ))}
      </Box>
    </Box>
  );
}
