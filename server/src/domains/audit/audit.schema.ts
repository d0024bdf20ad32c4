import { z } from "zod";
import { dateFilter, idsFilter, intFilter, textFilter } from "../../http/list-filters.ts";

export const auditFilter = z.strictObject({
  id: idsFilter,
  staffId: intFilter,
  resource: textFilter,
  action: textFilter,
  resourceId: textFilter,
  createdAt_gte: dateFilter,
  createdAt_lte: dateFilter,
});
export type AuditFilter = z.infer<typeof auditFilter>;
export const auditSortable = ["id", "createdAt", "staffId", "resource", "action"] as const;

// What the routes answer (docs/decisions/229).

/** audit-log list  */
export const auditLogRecord = z.object({
  id: z.number(),
  createdAt: z.date(),
  staffId: z.number().nullable(),
  resource: z.string(),
  action: z.string(),
  resourceId: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  reason: z.string().nullable(),
});
