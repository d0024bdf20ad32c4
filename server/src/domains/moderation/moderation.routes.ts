import { LIMIT_MESSAGES } from "../../contract/limits.ts";
import type { ApiRouter } from "../../http/api.ts";
import type { RateLimiter } from "../../http/rate-limit.ts";
import type { AppealsService } from "./appeals.service.ts";
import type { ModerationService } from "./moderation.service.ts";
import { appealAnswer, appealBody, noticeBody, noticesAnswer, reportAnswer, reportBody } from "./moderation.schema.ts";

export function moderationRoutes(
  api: ApiRouter,
  moderation: ModerationService,
  appeals: AppealsService,
  limiter: RateLimiter,
  reportsPerHour: { perIp: number; perAccount: number },
) {
  const perIp = (name: string) =>
    limiter.middleware(name, (req) => (req.ip ? [{ key: `ip:${req.ip}`, limit: reportsPerHour.perIp, windowSeconds: 3600 }] : []));
  // beside the address: one account behind many addresses is counted once (docs/decisions/251)
  const perAccount = limiter.middleware(
    "report-account",
    (req) => (req.principal?.kind === "user" ? [{ key: `user:${req.principal.userId}`, limit: reportsPerHour.perAccount, windowSeconds: 3600 }] : []),
    LIMIT_MESSAGES.hourly,
  );
  api.post(
    "/api/report",
    {
      summary:
        "Report a creation, upload, character, creator page, conversation or message (public content: anyone; private: its sides; underage reports hide the content at once)",
      tags: ["moderation"],
      auth: "public",
      can: ["create", "Report"],
      body: reportBody,
      before: [perIp("report"), perAccount],
      response: reportAnswer,
    },
    ({ body, principal }) => moderation.fileReport(principal.kind === "user" ? principal.userId : null, body),
  );

  api.post(
    "/api/notices/report",
    {
      summary: "The public notice-and-action form: a link to content on Reverie, why, contact, and a sworn statement for removal requests (no account needed)",
      tags: ["moderation"],
      auth: "public",
      can: ["create", "Report"],
      body: noticeBody,
      before: [perIp("notice")],
      response: reportAnswer,
    },
    ({ body }) => moderation.fileNotice(body),
  );

  api.get(
    "/api/notices",
    {
      summary: "Statements of reasons: every takedown, hold and ban decided about the signed-in person, with how to appeal",
      tags: ["moderation"],
      auth: "user",
      can: ["read", "Decision"],
      response: noticesAnswer,
    },
    ({ principal }) => appeals.listForUser(principal.userId),
  );

  api.post(
    "/api/notices/appeal",
    {
      summary: "Appeal one decision with the key its statement of reasons carries (works without a login, for banned accounts)",
      tags: ["moderation"],
      auth: "public",
      can: ["create", "Appeal"],
      body: appealBody,
      before: [perIp("appeal")],
      response: appealAnswer,
    },
    ({ body }) => appeals.fileAppeal(body),
  );
}
