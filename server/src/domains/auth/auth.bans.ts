import type { Db, Tx } from "../../db/client.ts";
import type { BanNotice } from "../../contract/refusals.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";

/**
 * The account whose ban in force covers any of these strong identifiers (moderation.bannedOwner): a new account may
 * not be started from a banned device cookie, nor with a banned email, Google subject or channel player id
 * (docs/decisions/154, 249).
 */
export type BannedOwner = (
  c: Tx | Db,
  who: { email?: string | null; googleSub?: string | null; playerUid?: string | null; deviceId?: string },
) => Promise<number | null>;

/** Flags a new account whose fingerprint a ban covers, for moderators (moderation.flagEvasion); never refuses it. */
export type FlagEvasion = (tx: Tx, userId: number, who: { fingerprint?: string }) => Promise<void>;

/**
 * What a new account covered by someone else's ban is told: SPEC.md §6's message and nothing of that ban — its
 * reason, date and appeal belong to the banned account alone (docs/decisions/249).
 */
const EVASION_NOTICE: BanNotice = { reason: "banned", ban_reason: null, banned_at: null, decision: null };

/** What a login tells a banned person, and the check that keeps a ban from being dodged with a new account. */
export function createBans(db: Db, bannedOwner: BannedOwner, flagEvasion: FlagEvasion) {
  /**
   * What a banned account is answered instead of a silent logout: SPEC.md §6's 'Sorry, you do not have login
   * permission' with the reason staff gave and when, so the app can tell the person why and how to appeal.
   */
  async function bannedError(userId: number, tx: Tx | Db = db): Promise<HttpError> {
    const ban = await tx.ban.findFirst({
      where: { userId, liftedAt: null },
      orderBy: { id: "desc" },
      select: {
        reason: true,
        createdAt: true,
        decision: { select: { id: true, ground: true, automated: true, appealKey: true, appeal: { select: { status: true } } } },
      },
    });
    // the statement of reasons (docs/decisions/151): its ground, whether automated, and the key to appeal without a login
    const d = ban?.decision;
    const decision = d ? { id: d.id, ground: d.ground, automated: d.automated, appeal_key: d.appealKey, appeal_status: d.appeal?.status ?? null } : null;
    const notice: BanNotice = { reason: "banned", ban_reason: ban?.reason ?? null, banned_at: ban?.createdAt.toISOString() ?? null, decision };
    return new HttpError(403, MSG.noLoginPermission, notice);
  }

  /** A new account a ban covers by a strong identifier is refused, with the ban message and nothing of that ban. */
  async function refuseBanned(tx: Tx, who: Parameters<BannedOwner>[1]) {
    if ((await bannedOwner(tx, who)) !== null) throw new HttpError(403, MSG.noLoginPermission, EVASION_NOTICE);
  }

  return { bannedError, refuseBanned, flagEvasion };
}

export type Bans = ReturnType<typeof createBans>;
