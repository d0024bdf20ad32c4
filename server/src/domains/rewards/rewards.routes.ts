import type { ApiRouter } from "../../http/api.ts";
import { clientContext } from "../../http/client-context.ts";
import { checkInAnswer, checkInBody, checkInQuery, checkInStatusAnswer, referralAnswer } from "./rewards.schema.ts";
import type { RewardsService } from "./rewards.service.ts";

/** The daily gift and the invitation link (docs/decisions/302): each account's own, never another's. */
export function rewardsRoutes(api: ApiRouter, rewards: RewardsService) {
  const tags = ["rewards"];

  api.get(
    "/api/rewards/checkIn",
    {
      summary: "Today's daily gift: its credits, whether it was taken today (the account's time zone), the streak and the month's count",
      tags,
      auth: "user",
      can: ["read", "CheckIn"],
      query: checkInQuery,
      response: checkInStatusAnswer,
    },
    ({ principal, query }) => rewards.checkInStatus(principal.userId, query.time_zone),
  );

  api.post(
    "/api/rewards/checkIn",
    {
      summary:
        "Take today's daily gift once (409 when taken today, the month's are taken, it is off, the account is too new, or this device, address or network had its gifts today)",
      tags,
      auth: "user",
      can: ["create", "CheckIn"],
      body: checkInBody,
      response: checkInAnswer,
    },
    ({ principal, body, req }) => rewards.checkIn(principal.userId, body.time_zone, clientContext(req)),
  );

  api.get(
    "/api/rewards/referral",
    {
      summary: "The account's invitation code (link: /home?ref=CODE), how many it invited and rewarded, and the gifts' credits",
      tags,
      auth: "user",
      can: ["read", "Referral"],
      response: referralAnswer,
    },
    ({ principal }) => rewards.referralLink(principal.userId),
  );
}
