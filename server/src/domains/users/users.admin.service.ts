import type { Db } from "../../db/client.ts";
import type { Prisma, User } from "../../db/generated/client.ts";
import { matching, pageOf, type ListParams } from "../../db/paging.ts";
import { HttpError } from "../../http/errors.ts";
import type { AuditService } from "../audit/audit.service.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import { publicName, publicNameFields } from "../creators/creators.pages.ts";
import type { AdjustCreditsBody, LedgerFilter, PaymentPermissionBody, UserFilter } from "./users.admin.schema.ts";

/** What the console shows of an account (no login secrets). */
const accountFields = {
  id: true,
  uuid: true,
  nickname: true,
  email: true,
  loginType: true,
  role: true,
  photo: true,
  language: true,
  channelId: true,
  utmCampaign: true,
  paymentPermission: true,
  points: true,
  allPoints: true,
  freeGenerations: true,
  bannedAt: true,
  mergedIntoId: true,
  createdAt: true,
  updatedAt: true,
  creatorPage: publicNameFields.creatorPage,
} satisfies Prisma.UserSelect;

/** An account row with the name other people see in place of its page (the console's "Name shown" column). */
function named<U extends Parameters<typeof publicName>[0]>({ creatorPage, ...u }: U) {
  return { ...u, publicName: publicName({ ...u, creatorPage }) };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function userWhere(f: UserFilter): Prisma.UserWhereInput {
  const q = f.q;
  return {
    ...matching(f, ["loginType", "role", "channelId", "paymentPermission"]),
    ...(q
      ? {
          OR: [
            { email: { contains: q, mode: "insensitive" } },
            { nickname: { contains: q, mode: "insensitive" } },
            ...(UUID.test(q) ? [{ uuid: q.toLowerCase() }] : []),
            ...(/^\d{1,9}$/.test(q) ? [{ id: Number(q) }] : []),
          ],
        }
      : {}),
    ...(f.banned === undefined ? {} : { bannedAt: f.banned ? { not: null } : null }),
  };
}

/** Support's side of accounts: search, payment permission and credit corrections (always through domains/credits). */
export function createUsersAdminService({ db, audit, credits }: { db: Db; audit: AuditService; credits: CreditsService }) {
  /** The account as its console page shows it, with the end of a pending deletion's grace period (null: none pending). */
  async function account(id: number) {
    const [u, pending] = await Promise.all([
      db.user.findUnique({ where: { id }, select: accountFields }),
      db.accountDeletion.findFirst({ where: { userId: id, status: "pending" }, select: { eraseAfter: true } }),
    ]);
    return u && { ...named(u), deletionPendingUntil: pending?.eraseAfter ?? null };
  }

  return {
    /** Which of these account ids exist (a list of grants checked before it is applied). */
    async existingIds(ids: number[]): Promise<Set<number>> {
      const rows = await db.user.findMany({ where: { id: { in: ids } }, select: { id: true } });
      return new Set(rows.map((r) => r.id));
    },
    async list(params: ListParams<UserFilter>) {
      const page = await pageOf(db.user, params, userWhere(params.filter), { select: accountFields });
      // pageOf types its rows as whole users (as the list's row schema reads them); they are what accountFields selects
      const rows = (page.rows as unknown as Prisma.UserGetPayload<{ select: typeof accountFields }>[]).map(named);
      return { ...page, rows: rows as unknown as (User & { publicName: string })[] };
    },
    get: account,

    async setPaymentPermission(staffId: number, userId: number, body: PaymentPermissionBody) {
      await db.$transaction(async (tx) => {
        const before = await tx.user.findUnique({ where: { id: userId }, select: { id: true, paymentPermission: true } });
        if (!before) throw HttpError.notFound();
        const after = await tx.user.update({ where: { id: userId }, data: { paymentPermission: body.granted }, select: accountFields });
        await audit.record(tx, {
          staffId,
          action: body.granted ? "grant_payment_permission" : "revoke_payment_permission",
          resource: "User",
          resourceId: userId,
          before,
          after: { id: userId, paymentPermission: after.paymentPermission },
          reason: body.reason,
        });
      });
      return account(userId);
    },

    /** A staff correction through domains/credits: one ledger row (with the staff id) and its audit row in one transaction. */
    async adjustCredits(staffId: number, userId: number, body: AdjustCreditsBody) {
      if (!(await db.user.findUnique({ where: { id: userId }, select: { id: true } }))) throw HttpError.notFound();
      await credits.adjustCredits({ staffId, userId, delta: body.delta, reason: body.reason, idempotencyKey: body.idempotencyKey });
      return account(userId);
    },

    listLedger: (params: ListParams<LedgerFilter>) => pageOf(db.ledgerEntry, params, matching(params.filter, ["userId", "staffId", "reason"])),
    getLedgerEntry: (id: number) => db.ledgerEntry.findUnique({ where: { id } }),
  };
}

export type UsersAdminService = ReturnType<typeof createUsersAdminService>;
