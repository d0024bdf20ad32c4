import crypto from "node:crypto";
import type { OAuth2Client } from "google-auth-library";
import type { Logger } from "pino";
import type { Config } from "../../config.ts";
import { createBatchReader } from "../../db/batch.ts";
import { sqlPool, type Db, type Tx } from "../../db/client.ts";
import type { StaffRole, UserRole } from "../../db/generated/enums.ts";
import { Prisma } from "../../db/generated/client.ts";
import { anonymous, type Account, type Principal } from "../../authz/principal.ts";
import type { BanNotice } from "../../contract/refusals.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import type { RateLimiter } from "../../http/rate-limit.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import { publishSessionEnded } from "../generation/progress.ts";
import { ACCOUNT_COLUMNS } from "../users/users.service.ts";
import type { Mailer } from "./mailer.ts";
import { verifyPassword } from "./password.ts";
import { checkInitData } from "./telegram.ts";
import { createSessionCache } from "./session-cache.ts";
import { hashToken, newToken } from "./tokens.ts";
import { matchingTotpStep } from "./totp.ts";
import type { Attribution, ClientContext } from "../../http/client-context.ts";

/** Where a visitor came from (SPEC.md §7 request headers), recorded on first touch. */
export interface LoginResult {
  token: string;
  userId: number;
  isRegister: 0 | 1;
}

const SESSION_TOUCH_MS = 5 * 60_000;

interface SessionRow {
  id: number;
  revoked: boolean;
  expires_ms: number;
  last_seen_ms: number;
  user_id: number | null;
  banned: boolean | null;
  merged_into_id: number | null;
  staff_id: number | null;
  username: string | null;
  staff_roles: string[] | null;
  staff_active: boolean | null;
}

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

/**
 * The account whose ban in force covers any of these identifiers (moderation.bannedOwner): a new account may not be
 * started from a banned device, nor with a banned email, Google subject or channel player id (docs/decisions/154).
 */
export type BannedOwner = (c: Tx | Db, who: { email?: string | null; googleSub?: string | null; playerUid?: string | null; deviceId?: string; fingerprint?: string }) => Promise<number | null>;

export function createAuthService(deps: { db: Db; config: Config; credits: CreditsService; mailer: Mailer; limiter: RateLimiter; log: Logger; guestRowOwners: MoveUserRows[]; bannedOwner: BannedOwner; databaseUrl: string | undefined }) {
  const { db, config, credits, mailer, limiter, log, guestRowOwners, bannedOwner, databaseUrl } = deps;
  let googleClient: Promise<OAuth2Client> | undefined;
  /** google-auth-library is loaded on first use: it is a noticeable share of start-up time, and many sites never configure Google. */
  const google = () =>
    (googleClient ??= import("google-auth-library").then(
      ({ OAuth2Client }) =>
        new OAuth2Client({
          clientId: config.GOOGLE_CLIENT_ID,
          clientSecret: config.GOOGLE_CLIENT_SECRET,
          redirectUri: config.GOOGLE_REDIRECT_URI ?? `${config.publicUrl}/googleCallback`,
          endpoints: { oauth2FederatedSignonPemCertsUrl: config.GOOGLE_CERTS_URL, oauth2TokenUrl: config.GOOGLE_TOKEN_URL },
          issuers: config.GOOGLE_ISSUERS,
        }),
    ));

  async function openSession(tx: Tx | Db, who: { userId?: number; staffId?: number }, ctx: ClientContext, ttlMs: number): Promise<string> {
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

  const userTtl = config.SESSION_TTL_DAYS * 86_400_000;

  /**
   * What a banned account is answered instead of a silent logout: SPEC.md §6's 'Sorry, you do not have login
   * permission' with the reason staff gave and when, so the app can tell the person why and how to appeal.
   */
  async function bannedError(userId: number, tx: Tx | Db = db): Promise<HttpError> {
    const ban = await tx.ban.findFirst({
      where: { userId, liftedAt: null },
      orderBy: { id: "desc" },
      select: { reason: true, createdAt: true, decision: { select: { id: true, ground: true, automated: true, appealKey: true, appeal: { select: { status: true } } } } },
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

  /** Ends every login of the account; its open progress streams close on every instance when this commits. */
  async function revokeUserSessions(userId: number, tx: Tx | Db = db): Promise<void> {
    await tx.session.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: new Date() } });
    await publishSessionEnded(tx, { userId });
  }

  /**
   * A guest who logs in to an existing account brings everything along: credits through the ledger, and every
   * other owning domain's rows through that domain. The guest account is kept, marked merged.
   */
  async function mergeGuestInto(tx: Tx, guestId: number, targetId: number): Promise<void> {
    await credits.transferAll(tx, guestId, targetId, `merge:${guestId}:${targetId}`);
    for (const move of guestRowOwners) await move(tx, guestId, targetId);
    await moveRowsWithoutOwner(tx, guestId, targetId);
    await tx.user.update({ where: { id: guestId }, data: { mergedIntoId: targetId } });
    await revokeUserSessions(guestId, tx);
  }

  /**
   * Signs in to the account identified by `identity`, creating it or upgrading the current guest when
   * there is none. Returns the new session token.
   */
  async function signInIdentity(identity: Identity, current: Principal, ctx: ClientContext): Promise<LoginResult> {
    // a console session is never a way into someone's account (docs/decisions/072)
    if (current.kind === "staff") throw HttpError.forbidden();
    try {
      return await signInOnce(identity, current, ctx);
    } catch (err) {
      // Two first logins of the same new identity at once: one created the account, the other now finds it.
      if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") return signInOnce(identity, current, ctx);
      throw err;
    }
  }

  async function signInOnce(identity: Identity, current: Principal, ctx: ClientContext): Promise<LoginResult> {
    return db.$transaction(async (tx) => {
      const existing = await tx.user.findFirst({ where: identityFilter(identity) });
      const guest =
        current.kind === "user" && current.role === "visitor"
          ? await tx.user.findFirst({ where: { id: current.userId, loginType: "visitor", email: null, mergedIntoId: null } })
          : null;
      let userId: number;
      let isRegister: 0 | 1 = 0;
      if (existing) {
        if (existing.bannedAt) throw await bannedError(existing.id, tx);
        userId = existing.id;
        await tx.user.update({
          where: { id: existing.id },
          data: {
            googleSub: existing.googleSub ?? identity.googleSub,
            loginType: "registered",
            role: existing.role === "visitor" ? "user" : existing.role,
            photo: existing.photo ?? identity.photo,
            // the guest's visit came first, so its attribution wins over this request's headers
            ...missingAttribution(existing, { ...ctx.attribution, ...(guest ? storedAttribution(guest) : {}) }),
          },
        });
        if (guest && guest.id !== existing.id) await mergeGuestInto(tx, guest.id, existing.id);
      } else if (guest) {
        await refuseBanned(tx, { ...identity, deviceId: ctx.device.id, fingerprint: ctx.device.fingerprint });
        userId = guest.id;
        isRegister = 1;
        await tx.user.update({
          where: { id: guest.id },
          data: {
            email: identity.email,
            googleSub: identity.googleSub,
            playerUid: identity.playerUid,
            loginType: "registered",
            role: "user",
            nickname: guest.nickname ?? identity.nickname,
            photo: guest.photo ?? identity.photo,
            ...missingAttribution(guest, ctx.attribution),
          },
        });
      } else {
        await refuseBanned(tx, { ...identity, deviceId: ctx.device.id, fingerprint: ctx.device.fingerprint });
        isRegister = 1;
        const created = await tx.user.create({
          data: {
            email: identity.email,
            googleSub: identity.googleSub,
            playerUid: identity.playerUid,
            nickname: identity.nickname,
            photo: identity.photo,
            loginType: "registered",
            role: "user",
            freeGenerations: config.FREE_GENERATIONS,
            ...attributionData(ctx.attribution),
          },
        });
        userId = created.id;
      }
      const token = await openSession(tx, { userId }, ctx, userTtl);
      return { token, userId, isRegister };
    });
  }

  const sessions = createSessionCache<SessionRow & Account>({
    databaseUrl,
    log,
    maxEntries: config.SESSION_CACHE_SIZE,
    ttlMs: config.SESSION_CACHE_SECONDS * 1000,
  });

  /**
   * Logins not kept in memory, read straight through pg (docs/decisions/001) in one round trip for every request of
   * the same event-loop turn (docs/decisions/226).
   */
  const readSessions = createBatchReader<string, SessionRow & Account>(async (hashes) => {
    const { rows } = await sqlPool(db).query<{ hash: string; session: SessionRow & Account }>({
      // a named statement is parsed and planned once per connection, not on every request
      name: "session-lookup",
      // One JSON column rather than 25: the driver's per-column work on every answer measured as a visible share
      // of an authenticated call (docs/decisions/007). Prisma keeps DateTime as UTC in "timestamp without time
      // zone"; the epoch of such a value reads it as UTC too.
      text: `SELECT x.token_hash AS hash, row_to_json(x) AS session FROM (
               SELECT s.token_hash, s.id, s.revoked_at IS NOT NULL AS revoked,
                      (extract(epoch FROM s.expires_at) * 1000)::float8 AS expires_ms,
                      (extract(epoch FROM s.last_seen_at) * 1000)::float8 AS last_seen_ms,
                      u.id AS user_id, u.banned_at IS NOT NULL AS banned, u.merged_into_id,
                      st.id AS staff_id, st.username, st.roles::text[] AS staff_roles, st.active AS staff_active,
                      ${ACCOUNT_COLUMNS}
                 FROM sessions s
                 LEFT JOIN users u ON u.id = s.user_id
                 LEFT JOIN staff st ON st.id = s.staff_id
                WHERE s.token_hash = ANY($1::text[])) x`,
      values: [hashes],
    });
    return new Map(rows.map((r) => [r.hash, r.session]));
  });

  /** The login a token hash names; 401 when none does. */
  async function readSession(hash: string): Promise<SessionRow & Account> {
    const session = await readSessions(hash);
    if (!session) throw HttpError.unauthorized();
    return session;
  }

  /** Who a session row says is calling; throws for a login that no longer counts. Only rows that pass are kept. */
  async function principalOf(session: SessionRow & Account): Promise<Principal> {
    if (session.expires_ms <= Date.now()) throw HttpError.unauthorized();
    // a ban revokes the account's sessions; its token still earns the person the reason, not a bare logout
    if (session.user_id !== null && session.banned && session.merged_into_id === null) throw await bannedError(session.user_id);
    if (session.revoked) throw HttpError.unauthorized();
    if (session.user_id !== null) {
      if (session.merged_into_id !== null) throw HttpError.unauthorized();
      return { kind: "user", sessionId: session.id, userId: session.user_id, role: session.role as UserRole, banned: session.banned === true, account: session };
    }
    if (session.staff_id !== null && session.staff_active) {
      return { kind: "staff", sessionId: session.id, staffId: session.staff_id, username: session.username!, roles: session.staff_roles as StaffRole[] };
    }
    throw HttpError.unauthorized();
  }

  /** Reads a login from the database and keeps it when it counts (unless it changed while being read). */
  async function load(hash: string): Promise<{ session: SessionRow & Account; principal: Principal }> {
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

  function codeHash(email: string, code: string): string {
    return crypto.createHash("sha256").update(`${email}:${code}`).digest("hex");
  }

  return {
    revokeUserSessions,

    /**
     * Turns a `token` header into who is calling. Unknown, expired or revoked tokens are 401. A login this instance
     * has resolved before comes from memory once a marker sent after the request arrived has come back, so it
     * reflects every change committed before the request, on any instance (docs/decisions/221); others cost one
     * round trip. The account read with it (balance included) is therefore the ledger's at a moment of the request.
     */
    async resolvePrincipal(token: string | undefined): Promise<Principal> {
      if (!token) return anonymous;
      const hash = hashToken(token);
      const kept = sessions.has(hash) && (await sessions.settled()) ? sessions.get(hash) : undefined;
      const { session, principal } = kept ? { session: kept, principal: await principalOf(kept) } : await load(hash);
      await touch(session);
      return principal;
    },

    /** SPEC.md §7 POST /api/login/visitor: a guest account with its own token. */
    async visitor(ctx: ClientContext): Promise<LoginResult> {
      if (ctx.ip) await limiter.hit("visitor", [{ key: `ip:${ctx.ip}`, limit: config.RATE_LIMIT_VISITOR_PER_HOUR, windowSeconds: 3600 }]);
      return db.$transaction(async (tx) => {
        await refuseBanned(tx, { deviceId: ctx.device.id, fingerprint: ctx.device.fingerprint });
        const user = await tx.user.create({
          data: { loginType: "visitor", role: "visitor", freeGenerations: config.FREE_GENERATIONS, ...attributionData(ctx.attribution) },
        });
        const token = await openSession(tx, { userId: user.id }, ctx, userTtl);
        return { token, userId: user.id, isRegister: 0 as const };
      });
    },

    /** Sends a 6-digit code valid for EMAIL_CODE_TTL_SECONDS; one code per email per resend window. */
    async sendEmailCode(email: string, ctx: ClientContext): Promise<{ expires_in: number; resend_in: number }> {
      await limiter.hit("email-code", [
        { key: `email:${email}`, limit: config.RATE_LIMIT_EMAIL_PER_HOUR, windowSeconds: 3600 },
        ...(ctx.ip ? [{ key: `ip:${ctx.ip}`, limit: config.RATE_LIMIT_IP_PER_HOUR, windowSeconds: 3600 }] : []),
      ]);
      const code = crypto.randomInt(0, 1_000_000).toString().padStart(6, "0");
      await db.$transaction(async (tx) => {
        // Requests for one email queue here, so two at once cannot both pass the cooldown check (docs/decisions/008).
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`email-code:${email}`}, 0))`;
        const last = await tx.emailCode.findFirst({ where: { email }, orderBy: { createdAt: "desc" }, select: { createdAt: true } });
        const waitMs = last ? last.createdAt.getTime() + config.EMAIL_CODE_RESEND_SECONDS * 1000 - Date.now() : 0;
        // The client counts down from resend_in; the message stays the one SPEC.md §8 keeps silent.
        if (waitMs > 0) throw new HttpError(429, MSG.tooManyRequests, { resend_in: Math.ceil(waitMs / 1000) });
        // a new code replaces any earlier one
        await tx.emailCode.updateMany({ where: { email, consumedAt: null }, data: { consumedAt: new Date() } });
        await tx.emailCode.create({ data: { email, codeHash: codeHash(email, code), ip: ctx.ip, expiresAt: new Date(Date.now() + config.EMAIL_CODE_TTL_SECONDS * 1000) } });
      });
      const minutes = Math.round(config.EMAIL_CODE_TTL_SECONDS / 60);
      await mailer.send({ to: email, subject: `Your Reverie code: ${code}`, body: `Your Reverie verification code is ${code}. It expires in ${minutes} minutes.`, secret: code });
      return { expires_in: config.EMAIL_CODE_TTL_SECONDS, resend_in: config.EMAIL_CODE_RESEND_SECONDS };
    },

    /** Checks the code (counting the attempt atomically) and signs in; the current guest's belongings follow. */
    async emailLogin(email: string, code: string, current: Principal, ctx: ClientContext): Promise<LoginResult> {
      if (ctx.ip) await limiter.hit("email-login", [{ key: `ip:${ctx.ip}`, limit: config.RATE_LIMIT_LOGIN_PER_MINUTE, windowSeconds: 60 }]);
      const active = await db.emailCode.findFirst({
        where: { email, consumedAt: null, expiresAt: { gt: new Date() } },
        orderBy: { createdAt: "desc" },
      });
      if (!active) throw HttpError.badRequest(MSG.wrongCode);
      const counted = await db.emailCode.updateMany({
        where: { id: active.id, consumedAt: null, attempts: { lt: config.EMAIL_CODE_MAX_ATTEMPTS } },
        data: { attempts: { increment: 1 } },
      });
      if (counted.count === 0) throw HttpError.badRequest(MSG.wrongCode);
      const expected = Buffer.from(active.codeHash, "hex");
      const given = Buffer.from(codeHash(email, code), "hex");
      if (!crypto.timingSafeEqual(expected, given)) throw HttpError.badRequest(MSG.wrongCode);
      const consumed = await db.emailCode.updateMany({ where: { id: active.id, consumedAt: null }, data: { consumedAt: new Date() } });
      if (consumed.count === 0) throw HttpError.badRequest(MSG.wrongCode);
      return signInIdentity({ email }, current, ctx);
    },

    async googleLoginUrl(state: string): Promise<string> {
      if (!config.GOOGLE_CLIENT_ID) throw new HttpError(503, "Google login is not configured");
      return (await google()).generateAuthUrl({ scope: ["openid", "email", "profile"], state, prompt: "select_account" });
    },

    /** Verifies a Google ID token (signature against Google's keys, audience, issuer, expiry) and signs in. */
    async googleLogin(input: { id_token?: string; code?: string }, current: Principal, ctx: ClientContext): Promise<LoginResult> {
      if (!config.GOOGLE_CLIENT_ID) throw new HttpError(503, "Google login is not configured");
      if (ctx.ip) await limiter.hit("google-login", [{ key: `ip:${ctx.ip}`, limit: config.RATE_LIMIT_LOGIN_PER_MINUTE, windowSeconds: 60 }]);
      let idToken = input.id_token;
      if (!idToken && input.code) {
        try {
          idToken = (await (await google()).getToken(input.code)).tokens.id_token ?? undefined;
        } catch (err) {
          log.warn({ err }, "google code exchange failed");
        }
      }
      if (!idToken) throw HttpError.badRequest(MSG.noLoginPermission);
      let payload;
      try {
        payload = (await (await google()).verifyIdToken({ idToken, audience: config.GOOGLE_CLIENT_ID })).getPayload();
      } catch (err) {
        log.info({ reason: (err as Error).message }, "google id token refused");
        throw HttpError.badRequest(MSG.noLoginPermission);
      }
      if (!payload?.sub || !payload.email || payload.email_verified === false) throw HttpError.badRequest(MSG.noLoginPermission);
      return signInIdentity({ email: payload.email.toLowerCase(), googleSub: payload.sub, nickname: payload.name, photo: payload.picture }, current, ctx);
    },

    /**
     * Messaging-channel login (SPEC.md §4/§7 channelServerLogin): the Telegram Mini App's initData, validated with the
     * bot token, identifies the player; their account is found, or the current guest becomes it (or is merged into
     * it) exactly like the other logins. `serverId` is the bot's id: which channel deployment the player is on.
     */
    async channelLogin(channelToken: string, current: Principal, ctx: ClientContext): Promise<LoginResult & { playerUid: string; serverId: string }> {
      const botToken = config.TELEGRAM_BOT_TOKEN;
      if (!botToken) throw new HttpError(503, "Channel login is not configured");
      if (ctx.ip) await limiter.hit("channel-login", [{ key: `ip:${ctx.ip}`, limit: config.RATE_LIMIT_LOGIN_PER_MINUTE, windowSeconds: 60 }]);
      const check = checkInitData(channelToken, botToken, config.TELEGRAM_INIT_DATA_MAX_AGE_SECONDS);
      if (!check.ok) {
        log.info({ why: check.why }, "channel login refused");
        throw HttpError.badRequest(MSG.noLoginPermission);
      }
      const playerUid = String(check.user.id);
      const nickname = [check.user.first_name, check.user.last_name].filter(Boolean).join(" ") || check.user.username;
      const result = await signInIdentity({ playerUid, nickname: nickname?.slice(0, 64), photo: check.user.photo_url }, current, ctx);
      return { ...result, playerUid, serverId: botToken.split(":")[0] };
    },

    /** For tests and the bench: resolves true once logins kept in memory are in use on this instance. */
    loginsSettled: () => sessions.settled(),

    async logout(sessionId: number): Promise<void> {
      await db.$transaction(async (tx) => {
        await tx.session.update({ where: { id: sessionId }, data: { revokedAt: new Date() } });
        await publishSessionEnded(tx, { sessionId });
      });
    },

    close: () => sessions.close(),

    /** Console login: username, password (scrypt) and the one-time code of the staff member's authenticator. */
    async staffLogin(input: { username: string; password: string; code: string }, ctx: ClientContext): Promise<{ token: string; staffId: number }> {
      await limiter.hit("staff-login", [
        { key: `user:${input.username.toLowerCase()}`, limit: 10, windowSeconds: 900 },
        ...(ctx.ip ? [{ key: `ip:${ctx.ip}`, limit: config.RATE_LIMIT_LOGIN_PER_MINUTE, windowSeconds: 60 }] : []),
      ]);
      const staff = await db.staff.findUnique({ where: { username: input.username } });
      const passwordOk = staff ? await verifyPassword(input.password, staff.passwordHash) : false;
      const step = staff && staff.active && passwordOk ? matchingTotpStep(staff.totpSecret, input.code) : null;
      if (!staff || step === null) throw HttpError.badRequest(MSG.noLoginPermission);
      // One conditional write claims the step, so a code seen over someone's shoulder, or sent twice at once, opens
      // at most one session (docs/decisions/008).
      const claimed = await db.staff.updateMany({ where: { id: staff.id, OR: [{ totpLastStep: null }, { totpLastStep: { lt: step } }] }, data: { totpLastStep: step } });
      if (claimed.count !== 1) throw HttpError.badRequest(MSG.noLoginPermission);
      const token = await openSession(db, { staffId: staff.id }, ctx, config.STAFF_SESSION_TTL_HOURS * 3_600_000);
      return { token, staffId: staff.id };
    },
  };
}

interface Identity {
  email?: string;
  googleSub?: string;
  /** The messaging channel's user id (Telegram), stored as users.player_uid. */
  playerUid?: string;
  nickname?: string;
  photo?: string;
}

/** The account an identity names. Never an empty filter: Prisma reads `{ email: undefined }` as "any user". */
function identityFilter(identity: Identity): Prisma.UserWhereInput {
  if (identity.playerUid) return { playerUid: identity.playerUid };
  if (!identity.email) throw new Error("a login identity needs an email or a player uid");
  return identity.googleSub ? { OR: [{ googleSub: identity.googleSub }, { email: identity.email }] } : { email: identity.email };
}

function attributionData(a: Attribution) {
  return { channelId: a.channelId, utmCampaign: a.utmCampaign, utmAdset: a.utmAdset, utmAd: a.utmAd, bemobClickId: a.bemobClickId };
}

function storedAttribution(user: Record<keyof Attribution, string | null>): Attribution {
  const a = attributionData(user as Attribution);
  return Object.fromEntries(Object.entries(a).filter(([, v]) => v !== null)) as Attribution;
}

/** First touch wins: an account keeps the channel and campaign it came from, and only gains what it lacks. */
function missingAttribution(user: Record<keyof Attribution, string | null>, a: Attribution) {
  const given = attributionData(a);
  return Object.fromEntries(Object.entries(given).filter(([k, v]) => v !== undefined && user[k as keyof Attribution] === null));
}

export type AuthService = ReturnType<typeof createAuthService>;
