import type { Logger } from "pino";
import type { Config } from "../../config.ts";
import { createBatchReader } from "../../db/batch.ts";
import { sqlPool, type Db, type Tx } from "../../db/client.ts";
import type { StaffRole, UserRole } from "../../db/generated/enums.ts";
import { anonymous, type Account, type Principal } from "../../authz/principal.ts";
import type { ClientContext } from "../../http/client-context.ts";
import { HttpError } from "../../http/errors.ts";
import { publishSessionEnded } from "../generation/progress.ts";
import { readSessionsByHash, type SessionRow } from "./auth.queries.ts";
import type { Bans } from "./auth.bans.ts";
import { createSessionCache } from "./session-cache.ts";
import { hashToken, newToken } from "./tokens.ts";

const SESSION_TOUCH_MS = 5 * 60_000;

type Login = SessionRow & Account;

/** A new login of a user or staff member, `ttlMs` long; answers its token (only its hash is stored). */
export async function openSession(tx: Tx | Db, who: { userId?: number; staffId?: number }, ctx: ClientContext, ttlMs: number): Promise<string> {
  const { token, hash } = newToken();
  await tx.session.create({
    data: {
      tokenHash: hash,
      userId: who.userId,
      staffId: who.staffId,
      channelId: ctx.attribution.channelId,
      ip: ctx.ip,
      userAgent: ctx.userAgent?.slice(0, 512),
      deviceId: ctx.device.id,
      fingerprint: ctx.device.fingerprint,
      expiresAt: new Date(Date.now() + ttlMs),
    },
  });
  return token;
}

/** A user's login, SESSION_TTL_DAYS long. */
export const openUserSession = (tx: Tx | Db, userId: number, ctx: ClientContext, config: Config) =>
  openSession(tx, { userId }, ctx, config.SESSION_TTL_DAYS * 86_400_000);

/** Who is calling: logins resolved from a token, kept in memory while they count, and ended. */
export function createSessions(deps: { db: Db; config: Config; log: Logger; databaseUrl: string | undefined; bans: Bans }) {
  const { db, config, log, databaseUrl, bans } = deps;
  const sessions = createSessionCache<Login>({
    databaseUrl,
    log,
    maxEntries: config.SESSION_CACHE_SIZE,
    ttlMs: config.SESSION_CACHE_SECONDS * 1000,
  });

  /**
   * Logins not kept in memory, read straight through pg (docs/decisions/001) in one round trip for every request of
   * the same event-loop turn (docs/decisions/226).
   */
  const readSessions = createBatchReader<string, Login>(async (hashes) => {
    const rows = await readSessionsByHash(sqlPool(db), hashes);
    return new Map(rows.map((r) => [r.hash, r.session]));
  });

  /** The login a token hash names; 401 when none does. */
  async function readSession(hash: string): Promise<Login> {
    const session = await readSessions(hash);
    if (!session) throw HttpError.unauthorized();
    return session;
  }

  /** Who a session row says is calling; throws for a login that no longer counts. Only rows that pass are kept. */
  async function principalOf(session: Login): Promise<Principal> {
    if (session.expires_ms <= Date.now()) throw HttpError.unauthorized();
    // a ban revokes the account's sessions; its token still earns the person the reason, not a bare logout
    if (session.user_id !== null && session.banned && session.merged_into_id === null) throw await bans.bannedError(session.user_id);
    if (session.revoked) throw HttpError.unauthorized();
    if (session.user_id !== null) {
      if (session.merged_into_id !== null) throw HttpError.unauthorized();
      return {
        kind: "user",
        sessionId: session.id,
        userId: session.user_id,
        role: session.role as UserRole,
        banned: session.banned === true,
        account: session,
      };
    }
    if (session.staff_id !== null && session.staff_active) {
      return { kind: "staff", sessionId: session.id, staffId: session.staff_id, username: session.username!, roles: session.staff_roles as StaffRole[] };
    }
    throw HttpError.unauthorized();
  }

  /** Reads a login from the database and keeps it when it counts (unless it changed while being read). */
  async function load(hash: string): Promise<{ session: Login; principal: Principal }> {
    const ticket = sessions.begin();
    const session = await readSession(hash);
    const principal = await principalOf(session);
    sessions.keep(hash, { userId: session.user_id, staffId: session.staff_id }, session, ticket);
    return { session, principal };
  }

  /** last_seen_at is written every few minutes, not on every request; the kept row remembers the write until its notification drops it. */
  async function touch(session: SessionRow): Promise<void> {
    if (Date.now() - session.last_seen_ms <= SESSION_TOUCH_MS) return;
    session.last_seen_ms = Date.now();
    await db.session.update({ where: { id: session.id }, data: { lastSeenAt: new Date() } });
  }

  /**
   * Turns a `token` header into who is calling. Unknown, expired or revoked tokens are 401. A login this instance
   * has resolved before comes from memory once a marker sent after the request arrived has come back, so it
   * reflects every change committed before the request, on any instance (docs/decisions/221); others cost one
   * round trip. The account read with it (balance included) is therefore the ledger's at a moment of the request.
   */
  async function resolvePrincipal(token: string | undefined): Promise<Principal> {
    if (!token) return anonymous;
    const hash = hashToken(token);
    const kept = sessions.has(hash) && (await sessions.settled()) ? sessions.get(hash) : undefined;
    const { session, principal } = kept ? { session: kept, principal: await principalOf(kept) } : await load(hash);
    await touch(session);
    return principal;
  }

  /**
   * Ends every login of the account; its open streams close on every instance when this commits. `banned`: the
   * account was banned, which chat's open replies end with the ban notice.
   */
  async function revokeUserSessions(userId: number, tx: Tx | Db = db, banned = false): Promise<void> {
    await tx.session.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: new Date() } });
    await publishSessionEnded(tx, banned ? { userId, banned } : { userId });
  }

  /**
   * Whether a user's login still counts: not logged out, not expired, its account not banned. What a media pass is
   * checked against on every request, so the pass dies with the login (docs/decisions/248).
   */
  async function userSessionLive(sessionId: number, userId: number): Promise<boolean> {
    const live = await db.session.count({ where: { id: sessionId, userId, revokedAt: null, expiresAt: { gt: new Date() }, user: { bannedAt: null } } });
    return live > 0;
  }

  async function logout(sessionId: number): Promise<void> {
    await db.$transaction(async (tx) => {
      await tx.session.update({ where: { id: sessionId }, data: { revokedAt: new Date() } });
      await publishSessionEnded(tx, { sessionId });
    });
  }

  return {
    resolvePrincipal,
    revokeUserSessions,
    userSessionLive,
    logout,
    /** For tests and the bench: resolves true once logins kept in memory are in use on this instance. */
    loginsSettled: () => sessions.settled(),
    close: () => sessions.close(),
  };
}
