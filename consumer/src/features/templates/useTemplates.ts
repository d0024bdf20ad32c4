import { useEffect, useState } from "react";
import type { TemplateCategory } from "../../../../server/src/contract/templates.ts";
import { getTemplates, type Template } from "./templates.api.ts";

/** The enabled templates (null while loading) and the category tab the user is looking at. */
export function useTemplates(): {
  templates: Template[] | null;
  category: TemplateCategory;
  setCategory: (c: TemplateCategory) => void;
  inCategory: (t: Template) => boolean;
} {
  const [templates, setTemplates] = useState<Template[] | null>(null);
  const [category, setCategory] = useState<TemplateCategory>("Portrait");
  useEffect(() => {
    getTemplates()
      .then(setTemplates)
      .catch(() => setTemplates([]));
  }, []);
  return { templates, category, setCategory, inCategory: (t) => t.category.toLowerCase() === category.toLowerCase() };
}
