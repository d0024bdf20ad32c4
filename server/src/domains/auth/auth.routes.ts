import crypto from "node:crypto";
import { defineAbilityFor } from "../../authz/abilities.ts";
import type { Principal } from "../../authz/principal.ts";
import type { ApiRouter } from "../../http/api.ts";
import { clientContext, withDeviceCookie } from "../../http/client-context.ts";
import type { UsersService } from "../users/users.service.ts";
import {
  channelLoginBody,
  channelServerLoginAnswer,
  emailLoginBody,
  getLoginUrlAnswer,
  googleLoginBody,
  loginAnswer,
  logoutAnswer,
  sendEmailCodeAnswer,
  sendEmailCodeBody,
  staffLoginBody,
  visitorAnswer,
} from "./auth.schema.ts";
import type { AuthService, LoginResult } from "./auth.service.ts";

export function authRoutes(api: ApiRouter, auth: AuthService, users: UsersService) {
  const tags = ["login"];

  /** The SPEC.md §7 login answer: token, user_info and is_register, with the abilities of the new session. */
  async function loginResponse(result: LoginResult) {
    const principal = await auth.resolvePrincipal(result.token);
    const info = await users.personalInfo(result.userId, defineAbilityFor(principal), principal.kind === "user" ? principal.account : undefined);
    return { token: result.token, user_info: info, is_register: result.isRegister };
  }

  api.post("/api/login/visitor", { summary: "Guest login: a new guest account and its token", tags, auth: "public", response: visitorAnswer }, async (ctx) =>
    loginResponse(await auth.visitor(withDeviceCookie(ctx.req, ctx.res, clientContext(ctx.req)))),
  );

  api.post(
    "/api/login/sendEmailCode",
    { summary: "Email a 6-digit login code", tags, auth: "public", body: sendEmailCodeBody, response: sendEmailCodeAnswer },
    async (ctx) => auth.sendEmailCode(ctx.body.email, clientContext(ctx.req)),
  );

  api.post(
    "/api/login/emailLogin",
    { summary: "Log in with the emailed code; a guest's belongings follow", tags, auth: "public", body: emailLoginBody, response: visitorAnswer },
    async (ctx) => loginResponse(await auth.emailLogin(ctx.body.email, ctx.body.code, ctx.principal, clientContext(ctx.req))),
  );

  api.post(
    "/api/login/googleLogin",
    { summary: "Log in with a Google ID token (or an authorization code)", tags, auth: "public", body: googleLoginBody, response: visitorAnswer },
    async (ctx) => loginResponse(await auth.googleLogin(ctx.body, ctx.principal, clientContext(ctx.req))),
  );

  api.post(
    "/api/OrderJpay/channelServerLogin",
    {
      summary: "Messaging-channel (Telegram Mini App) login with its initData as channel_token; answers playerUid and serverId",
      tags,
      auth: "public",
      body: channelLoginBody,
      response: channelServerLoginAnswer,
    },
    async (ctx) => {
      const result = await auth.channelLogin(ctx.body.channel_token, ctx.principal, clientContext(ctx.req));
      return { ...(await loginResponse(result)), playerUid: result.playerUid, serverId: result.serverId };
    },
  );

  // The browser keeps `state` and checks that /googleCallback comes back with the same one.
  api.get(
    "/api/login/getLoginUrl",
    { summary: "Google OAuth URL to send the browser to, and its state", tags, auth: "public", response: getLoginUrlAnswer },
    async () => {
      const state = crypto.randomBytes(16).toString("hex");
      return { url: await auth.googleLoginUrl(state), state };
    },
  );

  const logout = async ({ principal }: { principal: Principal }) => {
    if (principal.kind !== "anonymous") await auth.logout(principal.sessionId);
    return {};
  };
  api.post("/api/login/logout", { summary: "Revoke the current token", tags, auth: "public", response: logoutAnswer }, logout);
  api.post(
    "/admin/api/logout",
    { summary: "Console logout: revoke the current staff token", tags: ["console"], auth: "public", response: logoutAnswer },
    logout,
  );

  api.post(
    "/admin/api/login",
    { summary: "Console login: username, password and one-time code", tags: ["console"], auth: "public", body: staffLoginBody, response: loginAnswer },
    async (ctx) => auth.staffLogin(ctx.body, clientContext(ctx.req)),
  );
}
