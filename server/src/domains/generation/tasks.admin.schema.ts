import { z } from "zod";
import { dateFilter, idsFilter, intFilter, textFilter } from "../../http/list-filters.ts";
import { GENERATION_MODES, TASK_STATUSES } from "../../contract/generation.ts";
import { CONTENT_STATES } from "../../contract/moderation.ts";

export const taskFilter = z.strictObject({
  id: idsFilter,
  status: z.enum(TASK_STATUSES).optional(),
  mode: z.enum(GENERATION_MODES).optional(),
  engine: textFilter,
  state: z.enum(CONTENT_STATES).optional(),
  userId: intFilter,
  templateId: intFilter,
  createdAt_gte: dateFilter,
  createdAt_lte: dateFilter,
});
export type TaskFilter = z.infer<typeof taskFilter>;
export const taskSortable = ["id", "createdAt", "finishedAt", "status", "mode", "engine", "cost"] as const;
