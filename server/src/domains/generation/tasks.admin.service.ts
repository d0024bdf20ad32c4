import type { Db } from "../../db/client.ts";
import { matching, pageOf, type ListParams } from "../../db/paging.ts";
import type { TemplatesService } from "../templates/templates.service.ts";
import { withTemplateNames } from "./generation.template-names.ts";
import type { TaskFilter } from "./tasks.admin.schema.ts";

/** Generation tasks as staff see them: inputs, outputs and errors, read-only; each with its template's name. */
export function createTasksAdminService(db: Db, templates: Pick<TemplatesService, "names">) {
  return {
    async list(params: ListParams<TaskFilter>) {
      const page = await pageOf(db.generationTask, params, matching(params.filter, ["status", "mode", "engine", "state", "userId", "templateId"]));
      return { ...page, rows: await withTemplateNames(templates, page.rows) };
    },
    async get(id: number) {
      const task = await db.generationTask.findUnique({ where: { id } });
      return task ? (await withTemplateNames(templates, [task]))[0]! : null;
    },
  };
}

export type TasksAdminService = ReturnType<typeof createTasksAdminService>;
