import type { Db } from "../../db/client.ts";
import { matching, pageOf, type ListParams } from "../../db/paging.ts";
import type { TaskFilter } from "./tasks.admin.schema.ts";

/** Generation tasks as staff see them: inputs, outputs and errors, read-only. */
export function createTasksAdminService(db: Db) {
  return {
    list: (params: ListParams<TaskFilter>) =>
      pageOf(db.generationTask, params, matching(params.filter, ["status", "mode", "engine", "state", "userId", "templateId"])),
    get: (id: number) => db.generationTask.findUnique({ where: { id } }),
  };
}

export type TasksAdminService = ReturnType<typeof createTasksAdminService>;
