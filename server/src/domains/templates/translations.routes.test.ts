import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../tests/db-utils.ts";
import { staffMember, type StaffLogin } from "../../../../tests/staff-utils.ts";
import { TRANSLATED_LANGUAGES } from "../../contract/locales.ts";
import { seedTemplates } from "./templates.seed.ts";
import { SEED_BANNER_TITLES } from "./templates.translations.seed.ts";

let t: TestApp;
let marketer: StaffLogin;

beforeAll(async () => {
  t = await createTestApp();
  await seedTemplates(t.db, { config: t.config });
  marketer = await staffMember(t, ["marketer"]);
}, 60_000);
afterAll(() => t.close());

type Listed = { id: number; name: string; names: Record<string, string> };
const templatesList = async () => (await t.http.get("/api/Index/getTemplatesList").expect(200)).body.data.list as Listed[];

/** Issue 11 item 12: template names and prompt chips in the visitor's language, stored with them and edited in the console. */
describe("translated template names and prompt suggestions", () => {
  it("the demo catalogue comes with its names in ja, ko and ru", async () => {
    const list = await templatesList();
    expect(list.length).toBeGreaterThan(0);
    for (const tpl of list) expect(Object.keys(tpl.names).sort(), tpl.name).toEqual(["ja", "ko", "ru"]);
    const prompts = (await t.http.get("/api/Index/promptList").expect(200)).body.data as
      | { text: string; texts: Record<string, string> }[]
      | { list: { text: string; texts: Record<string, string> }[] };
    const rows = Array.isArray(prompts) ? prompts : prompts.list;
    for (const p of rows) expect(Object.keys(p.texts).sort(), p.text).toEqual(["ja", "ko", "ru"]);
  });

  it("a marketer edits a name per language in the console; an empty one falls back to English", async () => {
    const [first] = await templatesList();
    await t.http
      .put(`/admin/api/templates/${first.id}`)
      .set("token", marketer.token)
      .send({ names: { ja: "やさしいズーム", ko: "", ru: "Плавный зум" } })
      .expect(200);
    const after = (await templatesList()).find((x) => x.id === first.id)!;
    expect(after.names).toEqual({ ja: "やさしいズーム", ru: "Плавный зум" });
    const audit = await t.db.auditLog.findFirstOrThrow({ where: { resource: "Template", resourceId: String(first.id) }, orderBy: { id: "desc" } });
    expect((audit.after as { names: unknown }).names).toEqual({ ja: "やさしいズーム", ru: "Плавный зум" });
  });

  it("an unknown language or a name too long is refused and changes nothing", async () => {
    const [first] = await templatesList();
    const before = await t.db.template.findUniqueOrThrow({ where: { id: first.id } });
    const fr = await t.http
      .put(`/admin/api/templates/${first.id}`)
      .set("token", marketer.token)
      .send({ names: { fr: "Zoom doux" } })
      .expect(400);
    expect(fr.body.code).toBe(400);
    await t.http
      .put(`/admin/api/templates/${first.id}`)
      .set("token", marketer.token)
      .send({ names: { ja: "x".repeat(101) } })
      .expect(400);
    await t.http.put(`/admin/api/templates/${first.id}`).set("token", marketer.token).send({ names: "ソフト" }).expect(400);
    expect((await t.db.template.findUniqueOrThrow({ where: { id: first.id } })).names).toEqual(before.names);
  });

  it("prompt suggestions carry their translations the same way", async () => {
    const created = await t.http
      .post("/admin/api/prompt-suggestions")
      .set("token", marketer.token)
      .send({ text: "A lighthouse at dusk", texts: { ko: "해 질 녘의 등대" } })
      .expect(200);
    const id = created.body.id as number;
    const res = await t.http.get("/api/Index/promptList").expect(200);
    const rows = (Array.isArray(res.body.data) ? res.body.data : res.body.data.list) as { id: number; texts: Record<string, string> }[];
    expect(rows.find((p) => p.id === id)?.texts).toEqual({ ko: "해 질 녘의 등대" });
  });
});

type ListedBanner = { id: number; title: string; titles: Record<string, string>; image_url: string };
const bannerList = async () => (await t.http.get("/api/Index/bannerList").expect(200)).body.data.list as ListedBanner[];

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
