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

    /**
     * Puts the given templates in this order, in the places they held among themselves (so reordering one page of
     * the list leaves the other pages alone); places that were tied become consecutive.
     */
    reorder: (staffId: number, ids: number[]) =>
      db.$transaction(async (tx) => {
        const before = await tx.template.findMany({ where: { id: { in: ids } }, select: { id: true, sortOrder: true }, orderBy: { sortOrder: "asc" } });
        if (before.length !== ids.length || new Set(ids).size !== ids.length) throw HttpError.notFound();
        const held = before.map((t) => t.sortOrder);
        const places = new Set(held).size === held.length ? held : held.map((_, i) => held[0] + i);
        const after = ids.map((id, i) => ({ id, sortOrder: places[i] }));
        for (const t of after) await tx.template.update({ where: { id: t.id }, data: { sortOrder: t.sortOrder } });
        await audit.record(tx, { staffId, action: "reorder", resource: "Template", resourceId: null, before, after });
        return { ids };
      }),

  };
}

export type TemplatesAdminService = ReturnType<typeof createTemplatesAdminService>;
