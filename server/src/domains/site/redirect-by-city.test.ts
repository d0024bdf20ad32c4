import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../tests/db-utils.ts";
import { createGeoLookup } from "./geoip.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Addresses whose GeoLite2 entry is stable: MaxMind's own test address in Bracknell, Yandex in Moscow. */
const BRACKNELL = "81.2.69.160";
const MOSCOW = "5.255.255.242";

describe("GeoIP from the installed GeoLite2 package", () => {
  it("finds country and city for IPv4 (also as IPv4-mapped IPv6), nothing for private or bad addresses", async () => {
    const geo = createGeoLookup();
    expect(await geo(BRACKNELL)).toEqual({ country: "GB", city: "Bracknell", region: "England" });
    expect(await geo(`::ffff:${MOSCOW}`)).toMatchObject({ country: "RU", city: "Moscow" });
    expect(await geo("127.0.0.1")).toBeNull();
    expect(await geo("not-an-ip")).toBeNull();
  });
});

describe("GET /api/Index/redirectByCity", () => {
  const from = (ip: string) => t.http.get("/api/Index/redirectByCity?t=1").set("x-forwarded-for", ip).expect(200);

  it("says clearly when nothing is configured", async () => {
    expect((await from(MOSCOW)).body.data).toEqual({ configured: false, country: null, city: null, url: null, message: "Redirect by city is not configured" });
  });

  it("answers the city's rule first, then the country's, else no redirect", async () => {
    await t.db.siteSetting.create({
      data: {
        key: "cityRedirects",
        value: [
          { country: "ru", url: "https://ru.example.com/" },
          { country: "RU", city: "moscow", url: "https://msk.example.com/" },
        ],
      },
    });
    expect((await from(MOSCOW)).body.data).toEqual({ configured: true, country: "RU", city: "Moscow", url: "https://msk.example.com/", message: null });
    await t.db.siteSetting.update({ where: { key: "cityRedirects" }, data: { value: [{ country: "RU", url: "https://ru.example.com/" }] } });
    expect((await from(MOSCOW)).body.data.url).toBe("https://ru.example.com/");
    expect((await from(BRACKNELL)).body.data).toMatchObject({ configured: true, country: "GB", url: null, message: "No redirect for your location" });
    expect((await t.http.get("/api/Index/redirectByCity").expect(200)).body.data).toMatchObject({
      url: null,
      message: "Your location could not be determined",
    });
  });

  it("treats a malformed setting as not configured", async () => {
    await t.db.siteSetting.update({ where: { key: "cityRedirects" }, data: { value: { not: "a list" } } });
    expect((await from(MOSCOW)).body.data).toMatchObject({ configured: false, message: "Redirect by city is not configured" });
  });
});
