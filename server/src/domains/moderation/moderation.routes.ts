import type { ApiRouter } from "../../http/api.ts";
import type { RateLimiter } from "../../http/rate-limit.ts";
import type { ModerationService } from "./moderation.service.ts";
import { reportBody } from "./moderation.schema.ts";

export function moderationRoutes(api: ApiRouter, moderation: ModerationService, limiter: RateLimiter, reportsPerHour: number) {
  api.post(
    "/api/report",
    {
      summary: "Report a creation, upload, character or creator page (anyone; underage reports hide the content at once)",
      tags: ["moderation"],
      auth: "public",
      can: ["create", "Report"],
      body: reportBody,
      before: [limiter.middleware("report", (req) => (req.ip ? [{ key: `ip:${req.ip}`, limit: reportsPerHour, windowSeconds: 3600 }] : []))],
    },
    ({ body, principal }) => moderation.fileReport(principal.kind === "user" ? principal.userId : null, body),
  );
}
