import type { Db } from "../../db/client.ts";
import { dateRange, pageOf, type ListParams } from "../../db/paging.ts";
import type { TaskFilter } from "./tasks.admin.schema.ts";

/** Generation tasks as staff see them: inputs, outputs and errors, read-only. */
export function createTasksAdminService(db: Db) {
  return {
    list: (params: ListParams<TaskFilter>) => {
      const f = params.filter;
      return pageOf(db.generationTask, params, {
        ...(f.id ? { id: { in: f.id } } : {}),
        ...(f.status ? { status: f.status } : {}),
        ...(f.mode ? { mode: f.mode } : {}),
        ...(f.engine ? { engine: f.engine } : {}),
        ...(f.state ? { state: f.state } : {}),
        ...(f.userId ? { userId: f.userId } : {}),
        ...(f.templateId ? { templateId: f.templateId } : {}),
        ...(dateRange(f.createdAt_gte, f.createdAt_lte) ? { createdAt: dateRange(f.createdAt_gte, f.createdAt_lte) } : {}),
      });
    },
    get: (id: number) => db.generationTask.findUnique({ where: { id } }),
  };
}

export type TasksAdminService = ReturnType<typeof createTasksAdminService>;
