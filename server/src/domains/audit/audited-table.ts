import type { Db, Tx } from "../../db/client.ts";
import { Prisma } from "../../db/generated/client.ts";
import { pageOf, type ListParams, type PageableTable } from "../../db/paging.ts";
import { HttpError } from "../../http/errors.ts";
import type { AuditService } from "./audit.service.ts";

/** The part of a Prisma model delegate that plain console editing needs. */
export interface EditableTable<R, K> extends PageableTable<R> {
  findUnique(args: { where: K }): Promise<R | null>;
  create(args: { data: any }): Promise<R>;
  update(args: { where: K; data: any }): Promise<R>;
  delete(args: { where: K }): Promise<R>;
}

export interface AuditedTableSpec<R, K> {
  /** The model name written to the audit log's `resource` (User, Order, Template... as domains/credits writes it). */
  resource: string;
  table: (c: Db | Tx) => EditableTable<R, K>;
  key: (id: number | string) => K;
  idOf: (row: R) => number | string;
  /** what the audit log keeps of a row (e.g. secrets replaced); default: the whole row */
  redact?: (row: R) => unknown;
}

/**
 * Create / change / delete of a plain table where every change and its audit row (before, after, who)
 * commit in one transaction. Domains with rules of their own (bans, credits, reports) don't use this.
 */
export function auditedTable<R, K>(db: Db, audit: AuditService, spec: AuditedTableSpec<R, K>) {
  const { resource, table, key } = spec;
  const logged = (row: R) => (spec.redact ? spec.redact(row) : row);
  return {
    list: (params: ListParams<unknown>, where: object) => pageOf(table(db), params, where),
    get: (id: number | string) => table(db).findUnique({ where: key(id) }),

    create: (staffId: number, data: object, tx?: Tx) =>
      inTx(db, tx, async (t) => {
        const after = await table(t).create({ data });
        await audit.record(t, { staffId, action: "create", resource, resourceId: spec.idOf(after), after: logged(after) });
        return after;
      }),

    update: (staffId: number, id: number | string, data: object, tx?: Tx) =>
      inTx(db, tx, async (t) => {
        const before = await table(t).findUnique({ where: key(id) });
        if (!before) throw HttpError.notFound();
        const after = await table(t).update({ where: key(id), data });
        await audit.record(t, { staffId, action: "update", resource, resourceId: id, before: logged(before), after: logged(after) });
        return after;
      }),

    remove: (staffId: number, id: number | string) =>
      inTx(db, undefined, async (t) => {
        const before = await table(t).findUnique({ where: key(id) });
        if (!before) throw HttpError.notFound();
        await table(t).delete({ where: key(id) });
        await audit.record(t, { staffId, action: "delete", resource, resourceId: id, before: logged(before) });
        return before;
      }),
  };
}

async function inTx<T>(db: Db, tx: Tx | undefined, fn: (t: Tx) => Promise<T>): Promise<T> {
  try {
    return await (tx ? fn(tx) : db.$transaction(fn));
  } catch (err) {
    throw asInputError(err);
  }
}

/** A duplicate key or a reference to a missing row is the staff member's input, not a server fault. */
function asInputError(err: unknown): unknown {
  if (!(err instanceof Prisma.PrismaClientKnownRequestError)) return err;
  if (err.code === "P2002") return HttpError.conflict("A record with this value already exists");
  if (err.code === "P2003") return HttpError.badRequest("A referenced record does not exist");
  return err;
}

export const byId = (id: number | string) => ({ id: Number(id) });
