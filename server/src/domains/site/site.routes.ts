import { z } from "zod";
import { RESOLUTIONS } from "../../contract/generation.ts";
import { LANGUAGES } from "../../contract/locales.ts";
import { IMAGE_TYPES } from "../../contract/uploads.ts";
import type { Config } from "../../config.ts";
import type { ApiRouter } from "../../http/api.ts";
import { HttpError } from "../../http/errors.ts";
import type { EngineStatus } from "../generation/engines/engine.ts";
import type { PriceSpan } from "../generation/generation.price-range.ts";
import { MAX_DURATION_SEC } from "../generation/generation.schema.ts";
import { LIMITS } from "../uploads/uploads.service.ts";
import type { CityRedirects } from "./redirect-by-city.ts";
import type { Readiness } from "./site.readiness.ts";
import type { SiteService } from "./site.service.ts";
import {
  bannerListAnswer,
  basicSettingsAnswer,
  basicSettingsWithBrandAnswer,
  healthAnswer,
  promptListAnswer,
  readyAnswer,
  redirectByCityAnswer,
} from "./site.schema.ts";

const promptQuery = z.object({ category: z.string().max(40).optional() });

/** Health, and the SPEC.md §7 Index calls for banners, prompts and settings. */
export function siteRoutes(
  api: ApiRouter,
  site: SiteService,
  probes: { health: () => Promise<boolean>; ready: () => Promise<Readiness> },
  config: Config,
  engineStatus: () => Promise<EngineStatus>,
  redirects: CityRedirects,
  priceRange: () => Promise<Record<string, PriceSpan>>,
) {
  api.get("/api/health", { summary: "200 only when the database answers", tags: ["site"], auth: "public", response: healthAnswer }, async () => {
    if (!(await probes.health())) throw new HttpError(503, "Database unreachable");
    return { status: "ok" };
  });
  api.get(
    "/api/ready",
    {
      summary: "200 when this instance can serve (database reachable, migrations applied, storage reachable); 503 with the checks otherwise",
      tags: ["site"],
      auth: "public",
      response: readyAnswer,
    },
    async () => {
      const checks = await probes.ready();
      if (!checks.database || !checks.migrations || !checks.storage) throw new HttpError(503, "Not ready", checks);
      return { status: "ready", ...checks };
    },
  );
  const tags = ["index"];
  api.get("/api/Index/bannerList", { summary: "Home banners", tags, auth: "public", response: bannerListAnswer }, async () => ({ list: await site.banners() }));
  api.get(
    "/api/Index/promptList",
    { summary: "Prompt suggestions", tags, auth: "public", query: promptQuery, response: promptListAnswer },
    async ({ query }) => ({ list: await site.prompts(query.category) }),
  );
  api.get(
    "/api/Index/basicSettings",
    { summary: "Prices, limits and generation settings the app shows, and the operator's brand", tags, auth: "public", response: basicSettingsWithBrandAnswer },
    async () => {
      const [brand, ranges] = await Promise.all([site.brand(), priceRange()]);
      const settings = await site.settings({
        free_generations: config.FREE_GENERATIONS,
        max_duration: MAX_DURATION_SEC,
        resolutions: RESOLUTIONS,
        page_sizes: [10, 20, 30, 50],
        render_estimate: "1-2 minutes",
        price: {
          per_block_seconds: config.GENERATION_PRICE_SECONDS,
          "480P": config.GENERATION_PRICE_480P,
          "720P": config.GENERATION_PRICE_720P,
          image: config.IMAGE_CREDIT_PRICE,
          // the prices of what is on sale now, templates included: every claim the app makes is made from these
          ranges,
        },
        upload_limits: {
          image_types: IMAGE_TYPES,
          image_mb: LIMITS.imageBytes / 1048576,
          audio_mb: LIMITS.audioBytes / 1048576,
          audio_source_seconds: LIMITS.audioSourceSec,
          audio_trim_seconds: [LIMITS.trimMinSec, LIMITS.trimMaxSec],
          video_mb: LIMITS.videoBytes / 1048576,
          video_seconds: [LIMITS.videoMinSec, LIMITS.videoMaxSec],
        },
      });
      return { ...settings, site_name: brand.name, brand };
    },
  );
  api.get(
    "/api/Index/getSiteConfig",
    { summary: "Languages and the generation engine's status", tags, auth: "public", response: basicSettingsAnswer },
    async () => site.settings({ languages: LANGUAGES, default_language: (await site.brand()).language, engine: await engineStatus() }),
  );
  api.get(
    "/api/Index/redirectByCity",
    {
      summary: "The configured redirect for the caller's country/city (GeoIP); url null with a message when not configured or no rule matches",
      tags,
      auth: "public",
      response: redirectByCityAnswer,
    },
    ({ req }) => redirects.forIp(req.ip),
  );
}
