import crypto from "node:crypto";
import type { Language } from "../../contract/locales.ts";
import { NOTIFICATION_MESSAGES as M } from "../../contract/notifications.ts";
import { HttpError } from "../../http/errors.ts";
import type { AppDeps } from "../../render-services.ts";
import { mediaUrlSecret } from "../../storage/storage.ts";
import type { Mailer } from "../auth/mailer.ts";
import { digestMail } from "./notifications.mail.ts";
import { claimDigest } from "./notifications.queries.ts";
import { notificationViews } from "./notifications.service.ts";

/** users owns the address and the language an account's mail is written in */
type ContactOf = (userId: number) => Promise<{ email: string; language: Language } | null>;

/** Accounts read per round of a digest run. */
const BATCH = 200;
/** The most lines one digest lists (the latest first); the app has the rest. */
const DIGEST_LINES = 20;

/** The UTC day of `at` as YYYY-MM-DD: the period a digest is sent once in. */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * Email digests of the bell (docs/decisions/312): off until the person turns them on in the account area; one a day
 * of what is unread and came since the digest before; a signed link in each stops them without signing in.
 */
export function createNotificationDigests({ db, config }: Pick<AppDeps, "db" | "config">, contactOf: ContactOf, mailer: Pick<Mailer, "send">) {
  // derived from the server's signing secret under a name of its own, so no other signature can pass for this one
  const key = crypto.createHmac("sha256", mediaUrlSecret(config)).update("notification-digest-unsubscribe").digest();
  const signatureOf = (userId: number) => crypto.createHmac("sha256", key).update(String(userId)).digest("base64url");
  /** The unsubscribe token of an account: its id and the id's signature. */
  const tokenOf = (userId: number) => `${userId}.${signatureOf(userId)}`;

  /** Sends one account its digest of `day`, once: the claim is what two workers race for. */
  async function sendOne(userId: number, day: string): Promise<boolean> {
    const claimed = await claimDigest.first(db, { userId, day });
    if (!claimed) return false;
    const rows = await db.notification.findMany({
      where: { userId, readAt: null, ...(claimed.since ? { updatedAt: { gt: claimed.since } } : {}) },
      orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
      take: DIGEST_LINES,
    });
    const contact = rows.length ? await contactOf(userId) : null;
    if (!contact) return false;
    const mail = digestMail(contact.language, await notificationViews(db, rows), {
      app: `${config.publicUrl}/home`,
      unsubscribe: `${config.publicUrl}/unsubscribe?token=${encodeURIComponent(tokenOf(userId))}`,
    });
    await mailer.send({ to: contact.email, ...mail });
    return true;
  }

  return {
    tokenOf,

    async settings(userId: number) {
      const s = await db.notificationSetting.findUnique({ where: { userId } });
      return { email_digest: s?.emailDigest ?? false };
    },

    async setDigest(userId: number, on: boolean) {
      await db.notificationSetting.upsert({
        where: { userId },
        create: { userId, emailDigest: on },
        update: { emailDigest: on, updatedAt: new Date() },
      });
      return { email_digest: on };
    },

    /** Turns digests off for the token's account; a token that is not one of ours changes nothing (400). */
    async unsubscribe(token: string) {
      const [id, signature = ""] = token.split(".");
      const userId = Number(id);
      const expected = Buffer.from(Number.isSafeInteger(userId) && userId > 0 ? signatureOf(userId) : "");
      const given = Buffer.from(signature);
      const valid = expected.length > 0 && expected.length === given.length && crypto.timingSafeEqual(expected, given);
      if (!valid) throw HttpError.badRequest(M.badUnsubscribe);
      await db.notificationSetting.updateMany({ where: { userId }, data: { emailDigest: false, updatedAt: new Date() } });
      return { email_digest: false };
    },

    /**
     * The digests of `day` (UTC) to every account that wants one and has not had it: safe to run twice at once or
     * again after a crash (each account's day is claimed before its mail is sent). Answers how many were sent.
     */
    async run(day: string): Promise<number> {
      let sent = 0;
      let after = 0;
      for (;;) {
        const due = await db.notificationSetting.findMany({
          where: { emailDigest: true, userId: { gt: after }, OR: [{ digestDay: null }, { digestDay: { lt: day } }] },
          orderBy: { userId: "asc" },
          select: { userId: true },
          take: BATCH,
        });
        for (const { userId } of due) if (await sendOne(userId, day)) sent++;
        if (due.length < BATCH) return sent;
        after = due[due.length - 1]!.userId;
      }
    },
  };
}

export type NotificationDigests = ReturnType<typeof createNotificationDigests>;
