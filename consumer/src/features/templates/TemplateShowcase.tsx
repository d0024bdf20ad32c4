import { useEffect, useState } from "react";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { getVideoTemplates, type Template } from "./templates.api.ts";
import { TemplateCard } from "./TemplateCard.tsx";

const SHOWN = 6;

/** Home: a row of motion templates; one click opens the studio with it chosen. Hidden until templates exist. */
export function TemplateShowcase() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [templates, setTemplates] = useState<Template[]>([]);
  useEffect(() => {
    getVideoTemplates()
      .then((list) => setTemplates(list.slice(0, SHOWN)))
      .catch(() => setTemplates([]));
  }, []);
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
