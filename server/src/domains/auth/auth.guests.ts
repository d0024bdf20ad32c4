import type { Config } from "../../config.ts";
import type { Db, Tx } from "../../db/client.ts";
import type { ClientContext } from "../../http/client-context.ts";
import type { RateLimiter } from "../../http/rate-limit.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import { attributionData } from "./auth.attribution.ts";
import type { Bans } from "./auth.bans.ts";
import { openUserSession } from "./auth.sessions.ts";
import type { AccountStarted, LoginResult } from "./auth.sign-in.ts";

/**
 * Moves one owning domain's rows from a guest to the account it merges into, inside the sign-in's transaction. Each
 * domain that keeps rows per user hands one in (services.ts); auth writes no other domain's table (docs/decisions/050).
 */
export type MoveUserRows = (tx: Tx, fromUserId: number, toUserId: number) => Promise<void>;

/**
 * character_models, characters and conversations have no domain of their own yet: the training, creators and chat
 * domains take them over and each hands in its own MoveUserRows, replacing this (docs/decisions/050).
 */
const moveRowsWithoutOwner: MoveUserRows = async (tx, fromUserId, toUserId) => {
  const move = { where: { userId: fromUserId }, data: { userId: toUserId } };
  await tx.characterModel.updateMany(move);
};

/** Guest accounts: started with their own token, and merged into the account their person later signs in to. */
export function createGuests(deps: {
  db: Db;
  config: Config;
  credits: CreditsService;
  limiter: RateLimiter;
  guestRowOwners: MoveUserRows[];
  bans: Bans;
  revokeUserSessions: (userId: number, tx: Tx) => Promise<void>;
  accountStarted: AccountStarted;
}) {
  const { db, config, credits, limiter, guestRowOwners, bans, revokeUserSessions, accountStarted } = deps;

  return {
    /** SPEC.md §7 POST /api/login/visitor: a guest account with its own token. */
    async visitor(ctx: ClientContext): Promise<LoginResult> {
      if (ctx.ip) await limiter.hit("visitor", [{ key: `ip:${ctx.ip}`, limit: config.RATE_LIMIT_VISITOR_PER_HOUR, windowSeconds: 3600 }]);
      return db.$transaction(async (tx) => {
        await bans.refuseBanned(tx, { deviceId: ctx.device.id });
        const user = await tx.user.create({
          data: { loginType: "visitor", role: "visitor", freeGenerations: config.FREE_GENERATIONS, ...attributionData(ctx.attribution) },
        });
        await bans.flagEvasion(tx, user.id, ctx.device);
        await accountStarted(tx, user.id, ctx);
        const token = await openUserSession(tx, user.id, ctx, config);
        return { token, userId: user.id, isRegister: 0 as const };
      });
    },

    /**
     * A guest who logs in to an existing account brings everything along: credits through the ledger, and every
     * other owning domain's rows through that domain. The guest account is kept, marked merged.
     */
    async mergeGuestInto(tx: Tx, guestId: number, targetId: number): Promise<void> {
      await credits.transferAll(tx, guestId, targetId, `merge:${guestId}:${targetId}`);
      for (const move of guestRowOwners) await move(tx, guestId, targetId);
      await moveRowsWithoutOwner(tx, guestId, targetId);
      await tx.user.update({ where: { id: guestId }, data: { mergedIntoId: targetId } });
      await revokeUserSessions(guestId, tx);
    },
  };
}
