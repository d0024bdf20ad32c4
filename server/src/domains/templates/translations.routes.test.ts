import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../tests/db-utils.ts";
import { staffMember, type StaffLogin } from "../../../../tests/staff-utils.ts";
import { seedTemplates } from "./templates.seed.ts";

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
