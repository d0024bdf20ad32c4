import type { ApiRouter } from "../../http/api.ts";
import { tipAnswer, tipBody, tipSettingsAnswer, tipsAnswer, tipsQuery } from "./creator-tips.schema.ts";
import type { CreatorsService } from "./creators.service.ts";

/** Tips from fans to creators (issue 32 item 5, docs/decisions/304). */
export function tipsRoutes(api: ApiRouter, creators: CreatorsService) {
  const tags = ["creators"];
  api.get(
    "/api/Subscribe/tipSettings",
    { summary: "The tip amounts offered as one tap, and the smallest and largest tip (credits)", tags, auth: "public", response: tipSettingsAnswer },
    () => creators.tipSettings(),
  );
  api.post(
    "/api/Subscribe/tip",
    {
      summary: "Tip a creator from their page or one of its library items, with an optional message; charged once per idempotency key",
      tags,
      auth: "user",
      can: ["create", "Tip"],
      body: tipBody,
      response: tipAnswer,
    },
    ({ principal, body }) =>
      creators.tip(principal.userId, {
        homeLink: body.home_link,
        amount: body.amount,
        message: body.message,
        libraryItemId: body.library_item_id,
        idempotencyKey: body.idempotency_key,
      }),
  );
  api.get(
    "/api/Subscribe/tips",
    {
      summary: "The caller's tips as a fan, or (`as=creator`) the tips to their page, with their messages",
      tags,
      auth: "user",
      can: ["read", "Tip"],
      query: tipsQuery,
      response: tipsAnswer,
    },
    ({ principal, query }) => creators.tips(principal.userId, query.as),
  );
}
