import type { ApiRouter } from "../../http/api.ts";
import type { RequestHandler } from "express";
import type { SupportService } from "./support.service.ts";
import { supportMessageBody, supportReadAnswer, supportThreadAnswer } from "./support.schema.ts";

/** The person's side of the support inbox (docs/decisions/281); guests write on their guest account. */
export function supportRoutes(api: ApiRouter, support: SupportService, perHour: RequestHandler) {
  const tags = ["support"];
  api.get(
    "/api/support/thread",
    {
      summary: "The signed-in person's conversation with support and how many replies are unread",
      tags,
      auth: "user",
      can: ["read", "SupportThread"],
      response: supportThreadAnswer,
    },
    ({ principal }) => support.current(principal.userId),
  );
  api.post(
    "/api/support/messages",
    {
      summary: "Write to support, optionally about one of one's orders (opens a conversation or continues the open one)",
      tags,
      auth: "user",
      can: ["create", "SupportThread"],
      body: supportMessageBody,
      before: [perHour],
      response: supportThreadAnswer,
    },
    ({ principal, ability, body }) => support.write(principal.userId, ability, body),
  );
  api.post(
    "/api/support/read",
    { summary: "Marks support's replies as seen", tags, auth: "user", can: ["read", "SupportThread"], response: supportReadAnswer },
    ({ principal }) => support.markRead(principal.userId),
  );
}
