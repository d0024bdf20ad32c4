import type { Db, Tx } from "../../db/client.ts";
import type { BanNotice } from "../../contract/refusals.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";

/**
 * The account whose ban in force covers any of these identifiers (moderation.bannedOwner): a new account may not be
 * started from a banned device, nor with a banned email, Google subject or channel player id (docs/decisions/154).
 */
export type BannedOwner = (
  c: Tx | Db,
  who: { email?: string | null; googleSub?: string | null; playerUid?: string | null; deviceId?: string; fingerprint?: string },
) => Promise<number | null>;

/** What a login tells a banned person, and the check that keeps a ban from being dodged with a new account. */
export function createBans(db: Db, bannedOwner: BannedOwner) {
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

  /** A new account covered by someone's ban is refused with that ban's notice, so the person reads the statement of reasons. */
  async function refuseBanned(tx: Tx, who: Parameters<BannedOwner>[1]) {
    const owner = await bannedOwner(tx, who);
    if (owner !== null) throw await bannedError(owner, tx);
  }

  return { bannedError, refuseBanned };
}

export type Bans = ReturnType<typeof createBans>;
