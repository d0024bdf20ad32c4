import type { ApiRouter } from "../../http/api.ts";
import { HttpError } from "../../http/errors.ts";
import type { CityRedirects } from "./redirect-by-city.ts";

export function siteRoutes(api: ApiRouter, health: () => Promise<boolean>, redirects: CityRedirects) {
  api.get("/api/health", { summary: "200 only when the database answers", tags: ["site"], auth: "public" }, async () => {
    if (!(await health())) throw new HttpError(503, "Database unreachable");
    return { status: "ok" };
  });

  api.get(
    "/api/Index/redirectByCity",
    { summary: "The configured redirect for the caller's country/city (GeoIP); url null with a message when not configured or no rule matches", tags: ["site"], auth: "public" },
    ({ req }) => redirects.forIp(req.ip),
  );
}
