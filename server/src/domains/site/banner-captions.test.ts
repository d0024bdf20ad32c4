import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRANSLATED_LANGUAGES } from "../../contract/locales.ts";
import { createTestApp, type TestApp } from "../../../../tests/db-utils.ts";
import { staffMember, type StaffLogin } from "../../../../tests/staff-utils.ts";
import { seedTemplates } from "../templates/templates.seed.ts";
import { SEED_BANNER_TITLES } from "../templates/templates.translations.seed.ts";

let t: TestApp;
let marketer: StaffLogin;

beforeAll(async () => {
  t = await createTestApp();
  await seedTemplates(t.db, { config: t.config });
  marketer = await staffMember(t, ["marketer"]);
}, 60_000);
afterAll(() => t.close());

type Listed = { id: number; title: string; titles: Record<string, string>; image_url: string };
const bannerList = async () => (await t.http.get("/api/Index/bannerList").expect(200)).body.data.list as Listed[];

/** Issue 31 item 7: a banner's caption in the visitor's language, stored per language and edited in the console. */
describe("banner captions per language", () => {
  it("the seeded banners answer their caption in English and in ja, ko and ru", async () => {
    const list = await bannerList();
    expect(list.map((b) => b.title)).toEqual(["Turn a photo into a video", "New motion templates", "Credit packs and prices"]);
    expect(list.map((b) => b.titles)).toEqual(Object.values(SEED_BANNER_TITLES));
    for (const b of list) {
      for (const lng of TRANSLATED_LANGUAGES) expect(b.titles[lng], `${b.title} in ${lng}`).not.toBe(b.title);
      // the caption is written by the app, so the picture is the one without words
      expect(b.image_url).toMatch(/-plain\.jpg/);
    }
  });

  it("a marketer edits one language's caption and the landing sees it; an emptied language falls back to English", async () => {
    const [first] = await bannerList();
    await t.http
      .put(`/admin/api/banners/${first.id}`)
      .set("token", marketer.token)
      .send({ titles: { ja: "写真から動画を作ろう", ko: "", ru: "Оживите своё фото" } })
      .expect(200);
    const after = (await bannerList()).find((b) => b.id === first.id)!;
    expect(after.titles).toEqual({ ja: "写真から動画を作ろう", ru: "Оживите своё фото" });
    // no Korean caption: the app shows the English one, which is unchanged
    expect(after.title).toBe("Turn a photo into a video");
    const audit = await t.db.auditLog.findFirstOrThrow({ where: { resource: "Banner", resourceId: String(first.id) }, orderBy: { id: "desc" } });
    expect((audit.after as { titles: unknown }).titles).toEqual({ ja: "写真から動画を作ろう", ru: "Оживите своё фото" });

    // the console sends the whole record back; an edit of another field keeps the captions
    await t.http.put(`/admin/api/banners/${first.id}`).set("token", marketer.token).send({ sortOrder: 7 }).expect(200);
    expect((await bannerList()).find((b) => b.id === first.id)!.titles).toEqual({ ja: "写真から動画を作ろう", ru: "Оживите своё фото" });
  });

  it("a banner created without translations answers English only", async () => {
    const created = await t.http
      .post("/admin/api/banners")
      .set("token", marketer.token)
      .send({ title: "Winter looks", imageUrl: "site/banners/winter.jpg" })
      .expect(200);
    const listed = (await bannerList()).find((b) => b.id === created.body.id)!;
    expect(listed).toMatchObject({ title: "Winter looks", titles: {} });
  });

  it("an unknown language, a caption too long or captions that are not an object are refused and change nothing", async () => {
    const [, second] = await bannerList();
    const before = await t.db.banner.findUniqueOrThrow({ where: { id: second.id } });
    for (const titles of [{ fr: "Nouveaux modèles" }, { ja: "あ".repeat(201) }, "新しい"]) {
      const res = await t.http.put(`/admin/api/banners/${second.id}`).set("token", marketer.token).send({ titles }).expect(400);
      expect(res.body.code).toBe(400);
    }
    expect(await t.db.banner.findUniqueOrThrow({ where: { id: second.id } })).toEqual(before);
  });
});
