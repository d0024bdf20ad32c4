import type { Db, Tx } from "../../db/client.ts";
import { matching, pageOf, type ListParams } from "../../db/paging.ts";
import type { AuditFilter } from "./audit.schema.ts";

export interface AuditEntry {
  /** null: the system acting on someone's request (an underage report suspending content). */
  staffId: number | null;
  /** What was done, e.g. `update`, `ban`, `adjust_credits`. */
  action: string;
  /** The model changed, e.g. `Template`, `User`. */
  resource: string;
  resourceId: string | number | null;
  before?: unknown;
  after?: unknown;
  reason?: string | null;
}

/** Dates become ISO strings, undefined disappears: what a JSON column can hold. */
export function snapshot(value: unknown): object | undefined {
  return value === undefined || value === null ? undefined : (JSON.parse(JSON.stringify(value)) as object);
}

/**
 * The audit log of every staff change. `record` takes the transaction of the change itself,
 * so a change and its audit row commit or roll back together.
 */
export function createAuditService(db: Db) {
  return {
    async record(tx: Tx | Db, e: AuditEntry): Promise<void> {
      await tx.auditLog.create({
        data: {
          staffId: e.staffId,
          action: e.action,
          resource: e.resource,
          resourceId: e.resourceId === null ? null : String(e.resourceId),
          before: snapshot(e.before),
          after: snapshot(e.after),
          reason: e.reason ?? null,
        },
      });
    },

    list: (params: ListParams<AuditFilter>) => pageOf(db.auditLog, params, matching(params.filter, ["staffId", "resource", "action", "resourceId"])),

    get: (id: number) => db.auditLog.findUnique({ where: { id } }),
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
