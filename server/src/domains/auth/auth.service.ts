import type { Logger } from "pino";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import type { RateLimiter } from "../../http/rate-limit.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import { createBans, type BannedOwner, type FlagEvasion } from "./auth.bans.ts";
import { createChannelLogin } from "./auth.channel.ts";
import { createEmailCodes } from "./auth.email-codes.ts";
import { createAccountErasure } from "./auth.erase.ts";
import { createGoogleLogin } from "./auth.google.ts";
import { createGuests, type MoveUserRows } from "./auth.guests.ts";
import { createSessions } from "./auth.sessions.ts";
import { createSignIn, type AccountStarted } from "./auth.sign-in.ts";
import { createStaffLogin } from "./auth.staff.ts";
import type { Mailer } from "./mailer.ts";

export type { LoginResult } from "./auth.sign-in.ts";

/** Logins of every kind, and who a request's token says is calling: the use cases of this folder, wired together. */
export function createAuthService(deps: {
  db: Db;
  config: Config;
  credits: CreditsService;
  mailer: Mailer;
  limiter: RateLimiter;
  log: Logger;
  guestRowOwners: MoveUserRows[];
  bannedOwner: BannedOwner;
  flagEvasion: FlagEvasion;
  accountStarted: AccountStarted;
  databaseUrl: string | undefined;
}) {
  const { db, config, credits, mailer, limiter, log, guestRowOwners, databaseUrl } = deps;
  const bans = createBans(db, deps.bannedOwner, deps.flagEvasion);
  const sessions = createSessions({ db, config, log, databaseUrl, bans });
  const { accountStarted } = deps;
  const guests = createGuests({ db, config, credits, limiter, guestRowOwners, bans, revokeUserSessions: sessions.revokeUserSessions, accountStarted });
  const { signInIdentity: signIn } = createSignIn({ db, config, bans, mergeGuestInto: guests.mergeGuestInto, accountStarted });
  const emailCodes = createEmailCodes({ db, config, limiter, mailer, signIn });
  const google = createGoogleLogin({ config, limiter, log, signIn });

  return {
    revokeUserSessions: sessions.revokeUserSessions,
    userSessionLive: sessions.userSessionLive,
    resolvePrincipal: sessions.resolvePrincipal,
    visitor: guests.visitor,
    sendEmailCode: emailCodes.sendEmailCode,
    emailLogin: emailCodes.emailLogin,
    sendPurposeCode: emailCodes.sendPurposeCode,
    confirmEmailCode: emailCodes.confirmEmailCode,
    /** Account erasure (privacy, decision 262): the users row without personal fields, every login gone. */
    eraseUser: createAccountErasure(sessions.revokeUserSessions),
    googleLoginUrl: google.googleLoginUrl,
    googleLogin: google.googleLogin,
    channelLogin: createChannelLogin({ config, limiter, log, signIn }),
    loginsSettled: sessions.loginsSettled,
    logout: sessions.logout,
    close: sessions.close,
    staffLogin: createStaffLogin({ db, config, limiter }),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
