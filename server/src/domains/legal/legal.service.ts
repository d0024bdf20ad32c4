import type { Db } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/client.ts";
import type { Prisma } from "../../db/generated/client.ts";
import { matching, pageOf, type ListParams } from "../../db/paging.ts";
import { LEGAL_FIELDS, type LegalField } from "../../contract/legal.ts";
import { HttpError } from "../../http/errors.ts";
import type { AuditService } from "../audit/audit.service.ts";
import type { LegalCurrentAnswer, LegalVersionBody, LegalVersionRecord } from "./legal.schema.ts";

/** Said when two admins publish at the same moment: one of them publishes again. */
export const VERSION_TAKEN = "Another version was published at the same time; please publish again";

type Row = Omit<LegalVersionRecord, "missing" | "current" | "documents"> & { documents: Prisma.JsonValue };

const missingOf = (row: Record<LegalField, string>): LegalField[] => LEGAL_FIELDS.filter((f) => !row[f].trim());

/**
 * The legal pages (issue 35 item 2, docs/decisions/282): admins publish versions (never edited), each in force from
 * its effective date; the consumer app shows the one in force, and the orders domain records its number when a person
 * agrees to the terms at checkout.
 */
export function createLegalService(db: Db, audit: AuditService) {
  const inForce = (now = new Date()) =>
    db.legalVersion.findFirst({ where: { effectiveAt: { lte: now } }, orderBy: [{ effectiveAt: "desc" }, { version: "desc" }] });

  /** The rows as the console shows them; which one is in force is asked once, not once per row. */
  async function asRecords(rows: Row[]): Promise<LegalVersionRecord[]> {
    const current = rows.length ? await inForce() : null;
    return rows.map((row) => ({
      ...row,
      documents: row.documents as LegalVersionRecord["documents"],
      missing: missingOf(row),
      current: current?.id === row.id,
    }));
  }

  return {
    /** GET /api/legal/current. */
    async current(): Promise<LegalCurrentAnswer> {
      const row = await inForce();
      if (!row) return null;
      return {
        version: row.version,
        effective_at: row.effectiveAt.toISOString(),
        fields: Object.fromEntries(LEGAL_FIELDS.map((f) => [f, row[f]])) as Record<LegalField, string>,
        missing: missingOf(row),
        documents: row.documents as NonNullable<LegalCurrentAnswer>["documents"],
      };
    },

    /** The number of the version a person agrees to now (null before any is published): the orders domain keeps it. */
    async versionInForce(): Promise<number | null> {
      return (await inForce())?.version ?? null;
    },

    async list(params: ListParams<{ id?: number[] }>) {
      const page = await pageOf(db.legalVersion, params, matching(params.filter));
      return { ...page, rows: await asRecords(page.rows) };
    },
    async get(id: number) {
      const row = await db.legalVersion.findUnique({ where: { id } });
      return row && (await asRecords([row]))[0]!;
    },

    /** Publishes the next version, audited; it is in force from its effective date. */
    async publish(staffId: number | null, body: LegalVersionBody) {
      try {
        const row = await db.$transaction(async (tx) => {
          const last = await tx.legalVersion.findFirst({ orderBy: { version: "desc" }, select: { version: true } });
          // in force from when it is published, never earlier: a version cannot backdate itself (issue 46 item 18)
          const effectiveAt = new Date(Math.max(body.effectiveAt.getTime(), Date.now()));
          const created = await tx.legalVersion.create({
            data: { ...body, effectiveAt, documents: body.documents as Prisma.InputJsonObject, version: (last?.version ?? 0) + 1, createdById: staffId },
          });
          await audit.record(tx, { staffId, action: "create", resource: "LegalVersion", resourceId: created.id, before: null, after: created });
          return created;
        });
        return (await asRecords([row]))[0]!;
      } catch (err) {
        if (isUniqueViolation(err)) throw HttpError.conflict(VERSION_TAKEN);
        throw err;
      }
    },
  };
}

export type LegalService = ReturnType<typeof createLegalService>;
