import type { Config } from "../../config.ts";
import type { Db, Tx } from "../../db/client.ts";
import { Prisma, type User } from "../../db/generated/client.ts";
import type { LoginType } from "../../contract/users.ts";
import type { Principal } from "../../authz/principal.ts";
import type { ClientContext } from "../../http/client-context.ts";
import { HttpError } from "../../http/errors.ts";
import type { RateLimiter } from "../../http/rate-limit.ts";
import { attributionData, missingAttribution, storedAttribution } from "./auth.attribution.ts";
import type { Bans } from "./auth.bans.ts";
import { openUserSession } from "./auth.sessions.ts";

export interface LoginResult {
  token: string;
  userId: number;
  isRegister: 0 | 1;
}

/** Who a login says the person is. */
export interface Identity {
  email?: string;
  googleSub?: string;
  /** The messaging channel's user id (Telegram), stored as users.player_uid. */
  playerUid?: string;
  nickname?: string;
  photo?: string;
}

/**
 * Runs in the transaction that starts an account (a guest, a new sign-in, a guest saved with an identity): another
 * domain records what the first visit brought (an invitation code, rewards.invited, docs/decisions/302).
 */
export type AccountStarted = (tx: Tx, userId: number, ctx: ClientContext) => Promise<void>;

/**
 * SPEC.md §4's login type after signing in with this identity (decision 373): an email or Google makes the account
 * `registered` for good; the messaging channel alone (a Telegram player id) makes a guest or a new account
 * `noRegister`, and takes nothing from a `registered` one.
 */
export function loginTypeAfter(identity: Identity, before: LoginType = "visitor"): LoginType {
  if (identity.email || identity.googleSub) return "registered";
  return before === "registered" ? "registered" : "noRegister";
}

/** The account an identity names. Never an empty filter: Prisma reads `{ email: undefined }` as "any user". */
function identityFilter(identity: Identity): Prisma.UserWhereInput {
  if (identity.playerUid) return { playerUid: identity.playerUid };
  if (!identity.email) throw new Error("a login identity needs an email or a player uid");
  return identity.googleSub ? { OR: [{ googleSub: identity.googleSub }, { email: identity.email }] } : { email: identity.email };
}

/** The per-IP limit of a login attempt of this kind (`name`), when the caller's IP is known. */
export async function limitLoginsPerIp(limiter: RateLimiter, config: Config, name: string, ctx: ClientContext): Promise<void> {
  if (ctx.ip) await limiter.hit(name, [{ key: `ip:${ctx.ip}`, limit: config.RATE_LIMIT_LOGIN_PER_MINUTE, windowSeconds: 60 }]);
}

/**
 * Signing in to the account an identity names (email code, Google, messaging channel): found, or created, or the
 * current guest becomes it; a guest signing in to another account is merged into it.
 */
export function createSignIn(deps: {
  db: Db;
  config: Config;
  bans: Bans;
  mergeGuestInto: (tx: Tx, guestId: number, targetId: number) => Promise<void>;
  accountStarted: AccountStarted;
}) {
  const { db, config, bans, mergeGuestInto, accountStarted } = deps;

  /** The caller's own guest account, still a guest: the one a sign-in upgrades or merges. */
  async function currentGuest(tx: Tx, current: Principal): Promise<User | null> {
    if (current.kind !== "user" || current.role !== "visitor") return null;
    return tx.user.findFirst({ where: { id: current.userId, loginType: "visitor", email: null, mergedIntoId: null } });
  }

  /** The identity's account exists: registered now if it was not, and the current guest merged into it. */
  async function signInExisting(tx: Tx, existing: User, guest: User | null, identity: Identity, ctx: ClientContext): Promise<number> {
    if (existing.bannedAt) throw await bans.bannedError(existing.id, tx);
    // an older account signing in from a banned account's fingerprint is flagged as a new one is (docs/decisions/249)
    await bans.flagEvasion(tx, existing.id, ctx.device);
    await tx.user.update({
      where: { id: existing.id },
      data: {
        googleSub: existing.googleSub ?? identity.googleSub,
        loginType: loginTypeAfter(identity, existing.loginType),
        role: existing.role === "visitor" ? "user" : existing.role,
        photo: existing.photo ?? identity.photo,
        // the guest's visit came first, so its attribution wins over this request's headers
        ...missingAttribution(existing, { ...ctx.attribution, ...(guest ? storedAttribution(guest) : {}) }),
      },
    });
    if (guest && guest.id !== existing.id) await mergeGuestInto(tx, guest.id, existing.id);
    return existing.id;
  }

  /** A new identity signed in as a guest: the guest account becomes the identity's. */
  async function registerGuest(tx: Tx, guest: User, identity: Identity, ctx: ClientContext): Promise<number> {
    await bans.refuseBanned(tx, { ...identity, deviceId: ctx.device.id });
    await bans.flagEvasion(tx, guest.id, ctx.device);
    await tx.user.update({
      where: { id: guest.id },
      data: {
        email: identity.email,
        googleSub: identity.googleSub,
        playerUid: identity.playerUid,
        loginType: loginTypeAfter(identity),
        role: "user",
        nickname: guest.nickname ?? identity.nickname,
        photo: guest.photo ?? identity.photo,
        ...missingAttribution(guest, ctx.attribution),
      },
    });
    await accountStarted(tx, guest.id, ctx);
    return guest.id;
  }

  /** A new identity without a guest: a new account. */
  async function registerNew(tx: Tx, identity: Identity, ctx: ClientContext): Promise<number> {
    await bans.refuseBanned(tx, { ...identity, deviceId: ctx.device.id });
    const created = await tx.user.create({
      data: {
        email: identity.email,
        googleSub: identity.googleSub,
        playerUid: identity.playerUid,
        nickname: identity.nickname,
        photo: identity.photo,
        loginType: loginTypeAfter(identity),
        role: "user",
        freeGenerations: config.FREE_GENERATIONS,
        ...attributionData(ctx.attribution),
      },
    });
    await bans.flagEvasion(tx, created.id, ctx.device);
    await accountStarted(tx, created.id, ctx);
    return created.id;
  }

  async function signInOnce(identity: Identity, current: Principal, ctx: ClientContext): Promise<LoginResult> {
    return db.$transaction(async (tx) => {
      const existing = await tx.user.findFirst({ where: identityFilter(identity) });
      const guest = await currentGuest(tx, current);
      let userId: number;
      if (existing) userId = await signInExisting(tx, existing, guest, identity, ctx);
      else if (guest) userId = await registerGuest(tx, guest, identity, ctx);
      else userId = await registerNew(tx, identity, ctx);
      const token = await openUserSession(tx, userId, ctx, config);
      return { token, userId, isRegister: existing ? 0 : 1 };
    });
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

  return { signInIdentity };
}

export type SignIn = ReturnType<typeof createSignIn>["signInIdentity"];
