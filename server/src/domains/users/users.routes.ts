import type { ApiRouter } from "../../http/api.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import {
  belongingsAnswer,
  creditHistoryAnswer,
  creditHistoryQuery,
  personalInfoAnswer,
  selectUsersIntegralAnswer,
  uploadUserInfoBody,
  userUpdateAnswer,
  userUpdateBody,
} from "./users.schema.ts";
import type { UsersService } from "./users.service.ts";

export function usersRoutes(api: ApiRouter, users: UsersService, credits: CreditsService) {
  const tags = ["user"];

  api.get(
    "/api/Personal/personal_info",
    { summary: "The signed-in user's info, authBtnList and packed CASL rules", tags, auth: "user", can: ["read", "User"], response: personalInfoAnswer },
    async ({ principal, ability }) => ({
      info: await users.personalInfo(principal.userId, ability, principal.account),
    }),
  );

  api.get(
    "/api/Personal/belongings",
    {
      summary: "What the account holds that a guest's logout would lose: credits, results, a plan, a creator page",
      tags,
      auth: "user",
      can: ["read", "User"],
      response: belongingsAnswer,
    },
    ({ principal }) => users.belongings(principal.userId),
  );

  api.get(
    "/api/Personal/select_users_integral",
    { summary: "Credit balance: points and all_points", tags, auth: "user", can: ["read", "User"], response: selectUsersIntegralAnswer },
    ({ principal }) => credits.balance(principal.userId),
  );

  api.get(
    "/api/Personal/creditHistory",
    {
      summary: "The signed-in user's credit movements, newest first, each with its reason (purchases, spending, gifts, refunds)",
      tags,
      auth: "user",
      can: ["read", "LedgerEntry"],
      query: creditHistoryQuery,
      response: creditHistoryAnswer,
    },
    ({ principal, query }) => credits.history(principal.userId, query.page, query.limit),
  );

  api.post(
    "/api/Personal/user_update",
    { summary: "Update nickname, language, photo or title", tags, auth: "user", can: ["update", "User"], body: userUpdateBody, response: userUpdateAnswer },
    async ({ principal, body }) => {
      await users.update(principal.userId, body);
      return {};
    },
  );

  api.post(
    "/api/Personal/uploadUserInfo",
    { summary: "Set the nickname", tags, auth: "user", can: ["update", "User"], body: uploadUserInfoBody, response: userUpdateAnswer },
    async ({ principal, body }) => {
      await users.update(principal.userId, { nickname: body.nickname });
      return {};
    },
  );
}
