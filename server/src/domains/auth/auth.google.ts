import type { OAuth2Client } from "google-auth-library";
import type { Logger } from "pino";
import type { Config } from "../../config.ts";
import type { Principal } from "../../authz/principal.ts";
import type { ClientContext } from "../../http/client-context.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import type { RateLimiter } from "../../http/rate-limit.ts";
import { limitLoginsPerIp, type LoginResult, type SignIn } from "./auth.sign-in.ts";

/** Google login: the consent page's URL, and signing in with the ID token Google answers. */
export function createGoogleLogin(deps: { config: Config; limiter: RateLimiter; log: Logger; signIn: SignIn }) {
  const { config, limiter, log, signIn } = deps;
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

  /** The ID token given, or the one an authorization code exchanges for (undefined when the exchange fails). */
  async function idTokenOf(input: { id_token?: string; code?: string }): Promise<string | undefined> {
    if (input.id_token || !input.code) return input.id_token;
    try {
      return (await (await google()).getToken(input.code)).tokens.id_token ?? undefined;
    } catch (err) {
      log.warn({ err }, "google code exchange failed");
      return undefined;
    }
  }

  return {
    async googleLoginUrl(state: string): Promise<string> {
      if (!config.GOOGLE_CLIENT_ID) throw new HttpError(503, "Google login is not configured");
      return (await google()).generateAuthUrl({ scope: ["openid", "email", "profile"], state, prompt: "select_account" });
    },

    /** Verifies a Google ID token (signature against Google's keys, audience, issuer, expiry) and signs in. */
    async googleLogin(input: { id_token?: string; code?: string }, current: Principal, ctx: ClientContext): Promise<LoginResult> {
      if (!config.GOOGLE_CLIENT_ID) throw new HttpError(503, "Google login is not configured");
      await limitLoginsPerIp(limiter, config, "google-login", ctx);
      const idToken = await idTokenOf(input);
      if (!idToken) throw HttpError.badRequest(MSG.noLoginPermission);
      let payload;
      try {
        payload = (await (await google()).verifyIdToken({ idToken, audience: config.GOOGLE_CLIENT_ID })).getPayload();
      } catch (err) {
        log.info({ reason: (err as Error).message }, "google id token refused");
        throw HttpError.badRequest(MSG.noLoginPermission);
      }
      if (!payload?.sub || !payload.email || payload.email_verified === false) throw HttpError.badRequest(MSG.noLoginPermission);
      return signIn({ email: payload.email.toLowerCase(), googleSub: payload.sub, nickname: payload.name, photo: payload.picture }, current, ctx);
    },
  };
}
