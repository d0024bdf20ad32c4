import type { Db, Tx } from "../../db/client.ts";
import type { BanMarkKind } from "../../db/generated/enums.ts";
import { HttpError } from "../../http/errors.ts";
import type { AuditService } from "../audit/audit.service.ts";
import { recordDecision, type Decided } from "./moderation.decisions.ts";
import { lockAccountBans } from "./moderation.queries.ts";

export interface BanDeps {
  audit: AuditService;
  /** Ends every login of a user at once, as a ban (auth.revokeUserSessions): open chat replies end with the ban notice. */
  revokeUserSessions: (userId: number, tx: Tx, banned: true) => Promise<void>;
  /**
   * Ends what the account sells and buys on creator pages, in the ban's transaction (creators.accountBanned): its
   * memberships end, its page's fans are refunded what they had not used, its page's held requests are returned.
   */
  endCreatorDealings: (tx: Tx, userId: number) => Promise<void>;
  /** Fails and refunds the user's unfinished generation tasks (generation.cancelForAccount). */
  cancelUserTasks: (tx: Tx, userId: number, error: string) => Promise<void>;
  /** Upheld (not reversed) takedowns after which an account is suspended automatically (REPEAT_OFFENDER_TAKEDOWNS). */
  repeatOffenderTakedowns: number;
}

/** What a new account is checked against: the identifiers a ban covers. */
export interface Identifiers {
  email?: string | null;
  googleSub?: string | null;
  playerUid?: string | null;
  deviceId?: string;
  fingerprint?: string;
}

/**
 * What the ban covers besides the account (docs/decisions/154): its email, Google subject and channel player id, and
 * every device cookie and fingerprint its logins came from. They count while the ban is in force.
 */
async function markBanned(tx: Tx, banId: number, userId: number) {
  const user = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, googleSub: true, playerUid: true } });
  const sessions = await tx.session.findMany({ where: { userId }, select: { deviceId: true, fingerprint: true } });
  const marks: { kind: BanMarkKind; value: string | null }[] = [
    { kind: "email", value: user.email?.toLowerCase() ?? null },
    { kind: "google_sub", value: user.googleSub },
    { kind: "player_uid", value: user.playerUid },
    ...sessions.flatMap((s) => [
      { kind: "device_id" as const, value: s.deviceId },
      { kind: "fingerprint" as const, value: s.fingerprint },
    ]),
  ];
  const data = marks.filter((m): m is { kind: BanMarkKind; value: string } => m.value !== null).map((m) => ({ banId, ...m }));
  if (data.length) await tx.banMark.createMany({ data, skipDuplicates: true });
}

/**
 * The owner of a ban in force that covers any of these identifiers, or null (auth refuses new accounts with it).
 * Only strong identifiers count (docs/decisions/249): the email, Google subject and channel player id, and the device
 * cookie we set ourselves. A fingerprint is shared by every phone of one model and settings, so it never refuses
 * (`flagEvasion`). Reads ban marks alone, so auth is given it without the rest of moderation.
 */
export async function bannedOwner(c: Tx | Db, who: Identifiers) {
  const wanted = (
    [
      ["email", who.email?.toLowerCase()],
      ["google_sub", who.googleSub],
      ["player_uid", who.playerUid],
      ["device_id", who.deviceId],
    ] as [BanMarkKind, string | null | undefined][]
  ).filter((w): w is [BanMarkKind, string] => Boolean(w[1]));
  if (!wanted.length) return null;
  const mark = await c.banMark.findFirst({
    where: { OR: wanted.map(([kind, value]) => ({ kind, value })), ban: { liftedAt: null } },
    select: { ban: { select: { userId: true } } },
  });
  return mark?.ban.userId ?? null;
}

/**
 * A new account whose browser fingerprint a ban in force covers is let in and flagged for moderators, once per ban
 * (docs/decisions/249). In the caller's transaction, so the flag names an account that exists.
 */
export async function flagEvasion(tx: Tx, userId: number, who: Pick<Identifiers, "fingerprint">): Promise<void> {
  if (!who.fingerprint) return;
  const marks = await tx.banMark.findMany({
    where: { kind: "fingerprint", value: who.fingerprint, ban: { liftedAt: null, userId: { not: userId } } },
    select: { banId: true },
  });
  if (marks.length)
    await tx.banEvasionFlag.createMany({ data: marks.map((m) => ({ userId, banId: m.banId, signal: "fingerprint" as const })), skipDuplicates: true });
}

/**
 * At a ban: the other accounts that signed in with one of the fingerprints it now covers are flagged too (issue 47 item
 * 9: a stranger on the banned account's fingerprint had no flag when their account was older than the ban). Flag only.
 */
async function flagFingerprintSharers(tx: Tx, banId: number, userId: number) {
  const sharers = await tx.session.findMany({
    where: { userId: { not: userId }, fingerprint: { in: (await tx.banMark.findMany({ where: { banId, kind: "fingerprint" } })).map((m) => m.value) } },
    select: { userId: true },
    distinct: ["userId"],
  });
  const data = sharers.flatMap((s) => (s.userId === null ? [] : [{ userId: s.userId, banId, signal: "fingerprint" as const }]));
  if (data.length) await tx.banEvasionFlag.createMany({ data, skipDuplicates: true });
}

/** Bans and their lifting, inside the caller's transaction. */
export function createBans({ audit, revokeUserSessions, cancelUserTasks, endCreatorDealings, repeatOffenderTakedowns }: BanDeps) {
  /** `staffId` null: the system bans (repeat offenders), which its statement of reasons says. */
  async function ban(tx: Tx, staffId: number | null, userId: number, d: Decided) {
    await lockAccountBans.rows(tx, { userId });
    const before = await tx.user.findUnique({ where: { id: userId }, select: { id: true, bannedAt: true } });
    if (!before) throw HttpError.notFound();
    // first, before the account row is written: sales lock the page and then the creator's account, so this must too
    await endCreatorDealings(tx, userId);
    const created = await tx.ban.create({ data: { userId, reason: d.reason, staffId } });
    if (!before.bannedAt) await tx.user.update({ where: { id: userId }, data: { bannedAt: created.createdAt } });
    await revokeUserSessions(userId, tx, true);
    // renders in progress are not finished for, nor delivered to, a banned account
    await cancelUserTasks(tx, userId, "The account was banned");
    await markBanned(tx, created.id, userId);
    await flagFingerprintSharers(tx, created.id, userId);
    await recordDecision(tx, { userId, action: "ban", ground: d.ground ?? "other", explanation: d.reason, decidedById: staffId, banId: created.id });
    await audit.record(tx, {
      staffId,
      action: "ban",
      resource: "User",
      resourceId: userId,
      before,
      after: { id: userId, bannedAt: before.bannedAt ?? created.createdAt, banId: created.id },
      reason: d.reason,
    });
    return created;
  }

  /** Lifts every ban in force; their statements count as reversed. */
  async function liftBans(tx: Tx, staffId: number, userId: number, reason: string) {
    await lockAccountBans.rows(tx, { userId });
    const before = await tx.user.findUnique({ where: { id: userId }, select: { id: true, bannedAt: true } });
    if (!before) throw HttpError.notFound();
    if (!before.bannedAt) throw HttpError.conflict("This account is not banned");
    const now = new Date();
    const lifted = await tx.ban.findMany({ where: { userId, liftedAt: null }, select: { id: true } });
    await tx.ban.updateMany({ where: { userId, liftedAt: null }, data: { liftedAt: now, liftedById: staffId } });
    await tx.decision.updateMany({ where: { banId: { in: lifted.map((b) => b.id) }, reversedAt: null }, data: { reversedAt: now } });
    const after = await tx.user.update({ where: { id: userId }, data: { bannedAt: null }, select: { id: true, bannedAt: true } });
    await audit.record(tx, { staffId, action: "unban", resource: "User", resourceId: userId, before, after, reason });
    return after;
  }

  /**
   * After a takedown: an account whose upheld (never reversed) takedowns reach REPEAT_OFFENDER_TAKEDOWNS is suspended
   * by the system, with its own statement of reasons (DSA art. 23). An account already banned is left as it is.
   */
  async function suspendRepeatOffender(tx: Tx, userId: number) {
    const upheld = await tx.decision.count({ where: { userId, action: "takedown", reversedAt: null } });
    if (upheld < repeatOffenderTakedowns) return;
    const user = await tx.user.findUnique({ where: { id: userId }, select: { bannedAt: true } });
    if (!user || user.bannedAt) return;
    await ban(tx, null, userId, { reason: `${upheld} upheld takedowns`, ground: "repeat_offender" });
  }

  return { ban, liftBans, suspendRepeatOffender };
}

export type Bans = ReturnType<typeof createBans>;
