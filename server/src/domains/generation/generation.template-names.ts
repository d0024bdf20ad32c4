import { z } from "zod";
import type { TemplatesService } from "../templates/templates.service.ts";

/** What a figure kept by template id answers beside it: the template's name, English and per language (issue 35). */
export const templateNameFields = {
  /** null for a row without a template, or of a template deleted since */
  templateName: z.string().nullable(),
  templateNames: z.record(z.string(), z.string()),
};

/** Rows kept by template id, each with its template's names from one lookup for all of them (never one per row). */
export async function withTemplateNames<R extends { templateId: number | null }>(templates: Pick<TemplatesService, "names">, rows: R[]) {
  const names = await templates.names([...new Set(rows.flatMap((r) => r.templateId ?? []))]);
  return rows.map((r) => {
    const named = r.templateId === null ? undefined : names.get(r.templateId);
    return { ...r, templateName: named?.name ?? null, templateNames: named?.names ?? {} };
  });
}
