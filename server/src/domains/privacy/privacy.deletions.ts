import type { Logger } from "pino";
import type { Language } from "../../contract/locales.ts";
import { PRIVACY_MESSAGES as M } from "../../contract/privacy.ts";
import { isUniqueViolation, type Db } from "../../db/client.ts";
import type { AccountDeletion } from "../../db/generated/client.ts";
import { HttpError } from "../../http/errors.ts";
import type { ClientContext } from "../../http/client-context.ts";
import type { AuditService } from "../audit/audit.service.ts";
import type { Mail } from "../auth/mailer.ts";
import type { PrivacyJobs } from "./privacy.jobs.ts";
import type { CodeMail } from "../auth/auth.email-codes.ts";
import { deletionCodeMail, privacyMail } from "./privacy.mail.ts";

export interface DeletionDeps {
  db: Db;
  log: Logger;
  audit: AuditService;
  jobs: PrivacyJobs;
  sendMail(mail: Mail): Promise<void>;
  /** users: where and in which language to write to the person (null without an email) */
  contactOf(userId: number): Promise<{ email: string; language: Language } | null>;
  /** auth: the email code mechanism of sign-in, as a code of its own purpose (decisions 262, 379) */
  sendDeletionCode(email: string, ctx: ClientContext, mail: CodeMail): Promise<{ expires_in: number; resend_in: number }>;
  confirmDeletionCode(email: string, code: string): Promise<void>;
  graceDays: number;
}

export function deletionView(d: AccountDeletion | null) {
  return d ? { id: d.id, status: d.status, requested_at: d.requestedAt, erase_after: d.eraseAfter } : null;
}

/** Who confirms: the person (by the emailed code, or in the app when the account has no email) or a support agent. */
export type Confirmation = { by: "person"; code?: string; confirm?: boolean } | { by: "staff"; staffId: number; reason: string };

/** "My account gone" (GDPR Art. 17; decision 262): confirmed, undoable through the grace period, then erased by a job. */
export function createDeletions(d: DeletionDeps) {
  const { db } = d;

  /** The confirmation code goes to the account's address; an account without one confirms in the app instead. */
  async function sendCode(userId: number, ctx: ClientContext) {
    const to = await d.contactOf(userId);
    if (!to) throw HttpError.badRequest(M.noEmail);
    return d.sendDeletionCode(to.email, ctx, deletionCodeMail(to.language));
  }

  /** A person with an email gives its code; without one, the in-app confirmation. Staff confirm with a reason. */
  async function confirmed(how: Confirmation, email: string | null): Promise<void> {
    if (how.by === "staff") return;
    if (email) {
      if (!how.code) throw HttpError.badRequest(M.codeNeeded);
      return d.confirmDeletionCode(email, how.code);
    }
    if (how.confirm !== true) throw HttpError.badRequest(M.confirmNeeded);
  }

  async function request(userId: number, how: Confirmation) {
    const to = await d.contactOf(userId);
    if (await db.accountDeletion.count({ where: { userId, status: "pending" } })) throw HttpError.conflict(M.deletionPending);
    await confirmed(how, to?.email ?? null);
    const eraseAfter = new Date(Date.now() + d.graceDays * 86_400_000);
    const row = await db
      .$transaction(async (tx) => {
        if (how.by === "person") return tx.accountDeletion.create({ data: { userId, eraseAfter } });
        // staff name the account by an id they typed: an unknown one is 404, not a failed insert
        if (!(await tx.user.findUnique({ where: { id: userId }, select: { id: true } }))) throw HttpError.notFound();
        const created = await tx.accountDeletion.create({ data: { userId, staffId: how.staffId, eraseAfter } });
        await d.audit.record(tx, { staffId: how.staffId, action: "account_deletion", resource: "User", resourceId: userId, reason: how.reason });
        return created;
      })
      .catch((err: unknown) => {
        throw isUniqueViolation(err) ? HttpError.conflict(M.deletionPending) : err;
      });
    // a lost job is not a lost erasure: the sweep (eraseOverdue) finds every pending deletion past its time
    await d.jobs.sendErase(row.id, eraseAfter).catch((err: unknown) => d.log.error({ err, deletionId: row.id }, "erase job not queued; the sweep will run it"));
    if (to) await d.sendMail({ to: to.email, ...privacyMail("deletionScheduled", to.language, eraseAfter) });
    return deletionView(row)!;
  }

  /** Undoes a pending deletion during the grace period; 404 when there is none. */
  async function undo(userId: number, staff?: { staffId: number; reason: string }) {
    const pending = await db.accountDeletion.findFirst({ where: { userId, status: "pending" } });
    if (!pending) throw HttpError.notFound(M.noDeletion);
    await db.$transaction(async (tx) => {
      const undone = await tx.accountDeletion.updateMany({
        where: { id: pending.id, status: "pending" },
        data: { status: "cancelled", cancelledAt: new Date() },
      });
      if (undone.count === 0) throw HttpError.notFound(M.noDeletion);
      if (staff)
        await d.audit.record(tx, { staffId: staff.staffId, action: "account_deletion_undo", resource: "User", resourceId: userId, reason: staff.reason });
    });
    return deletionView({ ...pending, status: "cancelled" })!;
  }

  const latest = (userId: number) => db.accountDeletion.findFirst({ where: { userId }, orderBy: { id: "desc" } });
  const overdue = (now: Date) => db.accountDeletion.findMany({ where: { status: "pending", eraseAfter: { lte: now } }, select: { id: true }, take: 50 });
  return { sendCode, request, undo, latest, overdue };
}
