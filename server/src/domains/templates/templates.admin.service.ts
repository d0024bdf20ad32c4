import type { Db } from "../../db/client.ts";
import { matching, type ListParams } from "../../db/paging.ts";
import { HttpError } from "../../http/errors.ts";
import type { AuditService } from "../audit/audit.service.ts";
import { auditedTable, byId } from "../audit/audited-table.ts";
import type { TemplateBody, TemplateFilter } from "./templates.admin.schema.ts";

/** Marketing's template catalogue: every change audited. */
export function createTemplatesAdminService(db: Db, audit: AuditService) {
  const table = auditedTable(db, audit, { resource: "Template", table: (c) => c.template, key: byId, idOf: (r) => r.id });

  return {
    list: (params: ListParams<TemplateFilter>) => {
      const f = params.filter;
      return table.list(params, { ...matching(f, ["category", "mode", "suitFor", "enabled"]), ...(f.q ? { name: { contains: f.q, mode: "insensitive" } } : {}) });
    },
    get: table.get,
    create: (staffId: number, body: TemplateBody) => table.create(staffId, body),
    update: (staffId: number, id: number, body: Partial<TemplateBody>) => table.update(staffId, id, body),
    remove: table.remove,

    /** Puts the given templates first, in this order (sortOrder 0, 1, 2...). */
    reorder: (staffId: number, ids: number[]) =>
      db.$transaction(async (tx) => {
        const before = await tx.template.findMany({ where: { id: { in: ids } }, select: { id: true, sortOrder: true }, orderBy: { sortOrder: "asc" } });
        if (before.length !== new Set(ids).size) throw HttpError.notFound();
        for (const [sortOrder, id] of ids.entries()) await tx.template.update({ where: { id }, data: { sortOrder } });
        await audit.record(tx, { staffId, action: "reorder", resource: "Template", resourceId: null, before, after: ids.map((id, sortOrder) => ({ id, sortOrder })) });
        return { ids };
      }),

    setCover: (staffId: number, id: number, coverUrl: string) => table.update(staffId, id, { coverUrl }),
  };
}

export type TemplatesAdminService = ReturnType<typeof createTemplatesAdminService>;
