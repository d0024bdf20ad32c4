import { z } from "zod";
import type { Logger } from "pino";
import type { Db } from "../../db/client.ts";
import type { GeoLocation, GeoLookup } from "./geoip.ts";

/** The site setting marketers edit in the console (site settings, key `cityRedirects`). */
export const CITY_REDIRECTS_KEY = "cityRedirects";
export const NOT_CONFIGURED = "Redirect by city is not configured";

/** [{ "country": "RU", "city": "Moscow", "url": "https://…" }, { "country": "RU", "url": "…" }]: a rule without city covers the whole country. */
const rules = z.array(
  z.object({
    country: z
      .string()
      .trim()
      .length(2)
      .transform((c) => c.toUpperCase()),
    city: z.string().trim().min(1).max(100).optional(),
    url: z
      .string()
      .trim()
      .url()
      .refine((u) => /^https?:\/\//i.test(u), { error: "url must be http(s)" }),
  }),
);

export interface CityRedirect {
  configured: boolean;
  country: string | null;
  city: string | null;
  url: string | null;
  /** set when there is no url: why */
  message: string | null;
}

/** GET /api/Index/redirectByCity: the most specific rule for the visitor's country and city (city rule first, then country). */
export function createCityRedirects(db: Db, geo: GeoLookup, log: Logger) {
  return {
    async forIp(ip: string | undefined): Promise<CityRedirect> {
      const row = await db.siteSetting.findUnique({ where: { key: CITY_REDIRECTS_KEY } });
      const parsed = row ? rules.safeParse(row.value) : null;
      if (row && !parsed?.success) log.warn({ key: CITY_REDIRECTS_KEY }, "city redirect setting is not a list of {country, city?, url}; ignored");
      if (!parsed?.success || parsed.data.length === 0) return { configured: false, country: null, city: null, url: null, message: NOT_CONFIGURED };
      const where: GeoLocation | null = ip ? await geo(ip) : null;
      if (!where) return { configured: true, country: null, city: null, url: null, message: "Your location could not be determined" };
      const same = (a: string | null, b: string | undefined) => !!a && !!b && a.localeCompare(b, undefined, { sensitivity: "base" }) === 0;
      const inCountry = parsed.data.filter((r) => r.country === where.country);
      const hit = inCountry.find((r) => r.city && same(where.city, r.city)) ?? inCountry.find((r) => !r.city);
      return { configured: true, country: where.country, city: where.city, url: hit?.url ?? null, message: hit ? null : "No redirect for your location" };
    },
  };
}

export type CityRedirects = ReturnType<typeof createCityRedirects>;
