import type { ApiRouter } from "../../http/api.ts";
import { HttpError } from "../../http/errors.ts";

export function siteRoutes(api: ApiRouter, health: () => Promise<boolean>) {
  api.get("/api/health", { summary: "200 only when the database answers", tags: ["site"], auth: "public" }, async () => {
    if (!(await health())) throw new HttpError(503, "Database unreachable");
    return { status: "ok" };
  });
}
