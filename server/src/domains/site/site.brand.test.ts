import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, fetchMedia, type TestApp } from "../../../../tests/db-utils.ts";
import { photo } from "../../../../tests/fixtures/media.ts";
import { staffMember, type StaffLogin } from "../../../../tests/staff-utils.ts";
import { MSG } from "../../http/messages.ts";
import { BRAND_DEFAULTS } from "./site.brand.ts";

let t: TestApp;
let admin: StaffLogin;
let marketer: StaffLogin;
let support: StaffLogin;

beforeAll(async () => {
  t = await createTestApp();
  admin = await staffMember(t, ["admin"]);
  marketer = await staffMember(t, ["marketer"]);
  support = await staffMember(t, ["support"]);
}, 60_000);
afterAll(() => t.close());

const basic = async () => (await t.http.get("/api/Index/basicSettings").expect(200)).body.data;
const save = (token: string, value: unknown) => t.http.put("/admin/api/site-settings/brand").set("token", token).send({ value });
const stored = () => t.db.siteSetting.findUnique({ where: { key: "brand" } });
const uploadLogo = (key: string, token: string, file: Buffer, name: string) =>
  t.http.post(`/admin/api/site-settings/${key}/logo`).set("token", token).attach("file", file, name);

describe("the brand (site setting `brand`)", () => {
  it("is today's look until staff set one: basicSettings answers the defaults, the console's record too", async () => {
    const data = await basic();
    expect(data.brand).toEqual({ ...BRAND_DEFAULTS, logo_url: null });
    expect(data.site_name).toBe("Reverie");
    const record = await t.http.get("/admin/api/site-settings/brand").set("token", marketer.token).expect(200);
    expect(record.body).toMatchObject({ id: "brand", value: BRAND_DEFAULTS, updatedAt: null });
    await t.http.get("/admin/api/site-settings/nothing").set("token", marketer.token).expect(404);
  });

  it("refuses support (403) and changes nothing", async () => {
    await t.http
      .post("/admin/api/site-settings")
      .set("token", support.token)
      .send({ key: "brand", value: { name: "Nope" } })
      .expect(403);
    await uploadLogo("brand", support.token, await photo(200, 80, "png"), "logo.png").expect(403);
    expect(await stored()).toBeNull();
  });

  it("a marketer sets name, colours and language; basicSettings and getSiteConfig answer them at once", async () => {
    const res = await t.http
      .post("/admin/api/site-settings")
      .set("token", marketer.token)
      .send({ key: "brand", value: { name: "Moonlit", primary: "#22D3EE", language: "ja" } })
      .expect(200);
    expect(res.body.value).toEqual({ ...BRAND_DEFAULTS, name: "Moonlit", primary: "#22d3ee", language: "ja" });
    const data = await basic();
    expect(data.site_name).toBe("Moonlit");
    expect(data.brand).toMatchObject({ name: "Moonlit", primary: "#22d3ee", secondary: BRAND_DEFAULTS.secondary, logo_url: null });
    expect((await t.http.get("/api/Index/getSiteConfig").expect(200)).body.data).toMatchObject({ default_language: "ja" });
    const audits = await t.db.auditLog.findMany({ where: { resource: "SiteSetting", resourceId: "brand" } });
    expect(audits.map((a) => a.staffId)).toEqual([marketer.staffId]);
  });

  it.each([
    [{ primary: "#333333" }, /primary colour #333333 has a contrast of 1\.[0-9]{2}:1 .* at least 4\.5:1/],
    [{ secondary: "#4b0082" }, /secondary colour #4b0082 has a contrast of/],
    [{ primary: "violet" }, /A colour is written #rrggbb/],
    [{ primary: "#abc" }, /A colour is written #rrggbb/],
    [{ name: "" }, /product name/],
    [{ name: "x".repeat(41) }, /product name/],
    [{ language: "de" }, /default language is one of en, ja, ko, ru/],
    [{ logo: "https://evil.example/logo.png" }, /uploading an image/],
    [{ colour: "#ffffff" }, /.+/],
    ["not an object", /.+/],
  ])("refuses %j with a clear 400 and keeps the brand as it was", async (value, message) => {
    const before = await stored();
    const res = await save(admin.token, value).expect(400);
    expect(res.body.msg).toMatch(message);
    expect(await stored()).toEqual(before);
  });

  it("a colour just above AA passes and just below is refused (contrast computed, not guessed)", async () => {
    // #6e6e6e on #0b0b12 is 3.85:1, #7f7f7f 4.90:1 (WCAG 2 relative luminance)
    await save(marketer.token, { name: "Moonlit", primary: "#6e6e6e" }).expect(400);
    await save(marketer.token, { name: "Moonlit", primary: "#7f7f7f" }).expect(200);
  });

  it("the logo is checked by content: text named .png is refused, a key on another setting is 404", async () => {
    const before = await stored();
    const res = await uploadLogo("brand", marketer.token, Buffer.from("not an image\n".repeat(40)), "logo.png").expect(400);
    expect(res.body.msg).toBe(MSG.imageFormat);
    await uploadLogo("basicSettings", marketer.token, await photo(200, 80, "png"), "logo.png").expect(404);
    expect(await stored()).toEqual(before);
  });

  it("a logo upload is stored as site media and served signed through the media path; the colours stay", async () => {
    const res = await uploadLogo("brand", marketer.token, await photo(200, 80, "png"), "logo.png").expect(200);
    const key = (res.body.value as { logo: string }).logo;
    expect(key).toMatch(/^site\/brand\/[0-9a-f-]{36}\.(png|jpg)$/);
    const data = await basic();
    expect(data.brand).toMatchObject({ name: "Moonlit", primary: "#7f7f7f", logo: key });
    expect(data.brand.logo_url).toMatch(/^\/api\/media\/file\?/);
    const got = await fetchMedia(t, data.brand.logo_url);
    expect(got.status).toBe(200);
    expect(got.body.equals(await t.services.storage.get(key))).toBe(true);
    // a console save sends the key back unchanged
    await save(marketer.token, { ...data.brand, logo_url: undefined }).expect(200);
  });

  it("emails carry the operator's name for the product's, and the logo in their HTML part", async () => {
    const email = `brand-${Date.now()}@example.com`;
    await t.http.post("/api/login/sendEmailCode").send({ email }).expect(200);
    const mail = await t.db.outboxEmail.findFirstOrThrow({ where: { to: email } });
    expect(mail.subject).toMatch(/^Your Moonlit code: /);
    expect(mail.body).toMatch(/^Your Moonlit verification code is /);
    expect(mail.subject + mail.body).not.toContain("Reverie");
    const brand = await t.services.site.emailBrand();
    expect(brand.logoUrl).toMatch(/^https?:\/\/[^/]+\/api\/media\/file\?/);
  });
});
