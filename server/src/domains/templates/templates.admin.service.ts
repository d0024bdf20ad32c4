import type { Db } from "../../db/client.ts";
import { matching, type ListParams } from "../../db/paging.ts";
import { HttpError } from "../../http/errors.ts";
import { mediaKey, type MediaStorage } from "../../storage/storage.ts";
import type { AuditService } from "../audit/audit.service.ts";
import { auditedTable, byId } from "../audit/audited-table.ts";
import { checkedImage, type IncomingFile } from "../uploads/uploads.service.ts";
import type { TemplateBody, TemplateFilter } from "./templates.admin.schema.ts";
import { siteMediaUrl, type TemplateRefusal, type TemplateRun } from "./templates.service.ts";

/** What the generation engines say of a template: why it cannot run now, and why it can never pin its workflow (decision 320). */
export interface TemplateChecks {
  refusalFor: TemplateRefusal;
  pinFault: (mode: TemplateRun["mode"], workflow: string | null | undefined) => string | null;
}

/**
 * Marketing's template catalogue: every change audited. A save is kept even when the template cannot run now (its
 * engine or workflow may be on its way), but its answer warns why: the template stays off sale until it can run. A
 * pinned workflow that can never make the template's mode is refused instead: no server could ever run it.
 */
export function createTemplatesAdminService(db: Db, audit: AuditService, storage: MediaStorage, checks: TemplateChecks) {
  const table = auditedTable(db, audit, { resource: "Template", table: (c) => c.template, key: byId, idOf: (r) => r.id });
  const refusal = checks.refusalFor;

  /** Refuses (400) a workflow the template's mode cannot pin, before anything is written or, in a transaction, rolled back. */
  const assertPin = <R extends { mode: TemplateRun["mode"]; workflow?: string | null }>(row: R) => {
    const why = checks.pinFault(row.mode, row.workflow);
    if (why) throw HttpError.badRequest(why);
    return row;
  };

  /**
   * A change of the mode or the workflow is checked on the row as saved, in its transaction, so two saves at once (one
   * the mode, one the workflow) cannot together pin what neither alone would. A save that changes neither is kept,
   * so a template pinned before this check can still be turned off.
   */
  const update = (staffId: number, id: number, body: Partial<TemplateBody>) =>
    db.$transaction(async (tx) => {
      const before = await tx.template.findUnique({ where: { id }, select: { mode: true, workflow: true } });
      const after = await table.update(staffId, id, body, tx);
      return before?.mode === after.mode && before.workflow === after.workflow ? after : assertPin(after);
    });

  /** The console shows covers through `coverSrc`, a URL its browser can load (a stored `site/...` key is not one). */
  const withCoverSrc = async <R extends { coverUrl: string | null }>(row: R | null) =>
    row ? { ...row, coverSrc: await siteMediaUrl(storage, row.coverUrl) } : null;

  /** The saved template, with why it cannot run now (shown on save), or null. */
  const withWarning = async <R extends Parameters<TemplateRefusal>[0]>(row: R) => {
    const why = await refusal(row);
    const engine = row.engine ?? "the default engine";
    return { ...row, warning: why && `${why} (${engine}, workflow ${row.workflow ?? "of the engine's choice"})` };
  };

  return {
    list: async (params: ListParams<TemplateFilter>) => {
      const f = params.filter;
      const page = await table.list(params, {
        ...matching(f, ["category", "mode", "suitFor", "enabled"]),
        ...(f.q ? { name: { contains: f.q, mode: "insensitive" } } : {}),
      });
      return { ...page, rows: await Promise.all(page.rows.map(withCoverSrc)) };
    },
    get: async (id: number) => withCoverSrc(await table.get(id)),
    create: async (staffId: number, body: TemplateBody) => withWarning(await table.create(staffId, assertPin(body))),
    update: async (staffId: number, id: number, body: Partial<TemplateBody>) => withWarning(await update(staffId, id, body)),
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

    /**
     * A cover image checked by content like every upload, stored as site media, then set on the template with its
     * audit row in one transaction. The bytes are written first so a committed key always names a stored file; if the
     * template is gone the new file is removed again. Earlier covers stay stored: the audit log's `before` names them.
     */
    async setCover(staffId: number, id: number, file: IncomingFile | undefined) {
      if (!(await db.template.findUnique({ where: { id }, select: { id: true } }))) throw HttpError.notFound();
      const img = await checkedImage(file);
      const key = mediaKey("site", "templates", img.ext);
      await storage.put(key, img.data, img.mime);
      try {
        return await withCoverSrc(await table.update(staffId, id, { coverUrl: key }));
      } catch (err) {
        await storage.delete(key);
        throw err;
      }
    },
  };
}

export type TemplatesAdminService = ReturnType<typeof createTemplatesAdminService>;
