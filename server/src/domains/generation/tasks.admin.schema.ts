import { z } from "zod";
import { dateFilter, idsFilter, intFilter, textFilter } from "../../http/list-filters.ts";
import { GENERATION_MODES, TASK_STATUSES } from "../../contract/generation.ts";
import { templateNameFields } from "./generation.template-names.ts";
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

// What the routes answer (docs/decisions/229).

/** generation-tasks list  */
export const generationTaskRecord = z.object({
  error: z.string().nullable(),
  id: z.number(),
  input: z.unknown(),
  createdAt: z.date(),
  userId: z.number(),
  expiresAt: z.date().nullable(),
  status: z.enum(TASK_STATUSES),
  state: z.enum(CONTENT_STATES),
  cost: z.number(),
  finishedAt: z.date().nullable(),
  idempotencyKey: z.string().nullable(),
  progress: z.number(),
  isPublic: z.boolean(),
  mode: z.enum(GENERATION_MODES),
  engine: z.string(),
  templateId: z.number().nullable(),
  ...templateNameFields,
  paidWith: z.string(),
  resolution: z.string().nullable(),
  durationSec: z.number().nullable(),
  outputKey: z.string().nullable(),
  posterKey: z.string().nullable(),
  outputs: z.unknown(),
  attempts: z.number(),
  jobId: z.string().nullable(),
  heartbeatAt: z.date().nullable(),
  /** Each try on a GPU back end, [{attempt, workflow, server, at}] as generation.queries.ts appendRun writes it (docs/decisions/243). */
  runs: z.unknown(),
  startedAt: z.date().nullable(),
});
