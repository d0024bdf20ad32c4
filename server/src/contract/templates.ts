/** Template categories, in the order the apps show them. Import-free (docs/decisions/050). */
export const TEMPLATE_CATEGORIES = ["Portrait", "Lifestyle", "Creative"] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];
