import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, fetchMedia, type TestApp } from "../../../tests/db-utils.ts";
import { elevenMegabytePng, photo } from "../../../tests/fixtures/media.ts";
import { staffMember, type StaffLogin } from "../../../tests/staff-utils.ts";
import { MSG } from "../http/messages.ts";

let t: TestApp;
let marketer: StaffLogin;
let support: StaffLogin;
let templateId: number;

beforeAll(async () => {
  t = await createTestApp();
  marketer = await staffMember(t, ["marketer"]);
  support = await staffMember(t, ["support"]);
  const template = await t.db.template.create({
    data: {
      name: "Cover test",
      category: "Portrait",
      suitFor: "image",
      mode: "image_to_video",
      engineParams: {},
      creditPrice: 2,
      coverUrl: "https://cdn.example.com/old.jpg",
    },
  });
  templateId = template.id;
}, 60_000);
afterAll(() => t.close());

const uploadCover = (id: number, token: string, file: Buffer, name: string) =>
  t.http.post(`/admin/api/templates/${id}/cover`).set("token", token).attach("file", file, name);

const coverAudits = () => t.db.auditLog.findMany({ where: { resource: "Template", resourceId: String(templateId), action: "update" }, orderBy: { id: "asc" } });

describe("POST /admin/api/templates/:id/cover", () => {
  it("refuses staff who may not change templates (support: 403) and changes nothing", async () => {
    const res = await uploadCover(templateId, support.token, await photo(320, 240, "png"), "cover.png").expect(403);
    expect(res.body.code).toBe(403);
    expect((await t.db.template.findUniqueOrThrow({ where: { id: templateId } })).coverUrl).toBe("https://cdn.example.com/old.jpg");
    expect(await coverAudits()).toHaveLength(0);
  });

  it("refuses a text file renamed .png, and a file over 10 MB, with the SPEC messages; nothing changes", async () => {
    const text = await uploadCover(templateId, marketer.token, Buffer.from("this is not an image at all\n".repeat(20)), "cover.png").expect(400);
    expect(text.body.msg).toBe(MSG.imageFormat);
    expect(text.body.msg).toBe("Incorrect image format, please upload png, jpg, jpeg, webp, bmp format!");
    const big = await uploadCover(templateId, marketer.token, await elevenMegabytePng(), "big.png").expect(400);
    expect(big.body.msg).toBe("The image size of the uploaded image cannot exceed 10MB!");
    const none = await t.http.post(`/admin/api/templates/${templateId}/cover`).set("token", marketer.token).field("x", "1").expect(400);
    expect(none.body.msg).toBe(MSG.fileRequired);
    expect((await t.db.template.findUniqueOrThrow({ where: { id: templateId } })).coverUrl).toBe("https://cdn.example.com/old.jpg");
    expect(await coverAudits()).toHaveLength(0);
  });

  it("answers 404 for a template that does not exist", async () => {
    await uploadCover(999_999, marketer.token, await photo(320, 240, "png"), "cover.png").expect(404);
  });

  it("a marketer's PNG becomes the cover: stored as site media, audited before/after, and served signed by getTemplatesList", async () => {
    const png = await photo(320, 240, "png");
    const res = await uploadCover(templateId, marketer.token, png, "cover.png").expect(200);
    expect(res.body.id).toBe(templateId);
    expect(res.body.coverUrl).toMatch(/^site\/templates\/[0-9a-f-]{36}\.(jpg|png)$/);
    expect(res.body.coverSrc).toMatch(/^\/api\/media\/file\?/);
    const key = res.body.coverUrl as string;
    expect(await t.services.storage.exists(key)).toBe(true);

    const [audit] = await coverAudits();
    expect(audit.staffId).toBe(marketer.staffId);
    expect((audit.before as { coverUrl: string }).coverUrl).toBe("https://cdn.example.com/old.jpg");
    expect((audit.after as { coverUrl: string }).coverUrl).toBe(key);

    const shown = await t.http.get(`/admin/api/templates/${templateId}`).set("token", marketer.token).expect(200);
    expect(shown.body.coverSrc).toMatch(/^\/api\/media\/file\?/);

    const list = await t.http.get("/api/Index/getTemplatesList").expect(200);
    const mine = (list.body.data.list as { id: number; cover_url: string }[]).find((x) => x.id === templateId);
    expect(mine?.cover_url).toMatch(/^\/api\/media\/file\?/);
    const got = await fetchMedia(t, mine!.cover_url);
    expect(got.status).toBe(200);
    expect(got.body.equals(await t.services.storage.get(key))).toBe(true);
    const meta = await sharp(got.body).metadata();
    expect([meta.width, meta.height]).toEqual([320, 240]);
  });
});
