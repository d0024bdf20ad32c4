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
