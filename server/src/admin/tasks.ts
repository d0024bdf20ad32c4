import type { ApiRouter } from "../http/api.ts";
import { AdminResource } from "./resource.ts";
import type { TasksAdminService } from "../domains/generation/tasks.admin.service.ts";
import { generationTaskRecord, taskFilter, taskSortable } from "../domains/generation/tasks.admin.schema.ts";

export function tasksResource(api: ApiRouter, tasks: TasksAdminService) {
  const r = new AdminResource(api, "generation-tasks", "GenerationTask");
  r.list({ filter: taskFilter, sortable: taskSortable, row: generationTaskRecord }, (p) => tasks.list(p));
  r.get(generationTaskRecord, (id) => tasks.get(id));
}
