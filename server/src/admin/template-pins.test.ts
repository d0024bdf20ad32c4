import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../tests/db-utils.ts";
import { staffMember } from "../../../tests/staff-utils.ts";

/**
 * Decision 320: staff cannot save a template pinned to a workflow that can never make its mode (every person's submit
 * would be refused, decision 315); the refusal is a 400 in the console's words that writes nothing and audits nothing.
 */
let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = (await staffMember(t, ["marketer"])).token;
}, 60_000);
afterAll(() => t?.close());

const body = { name: "Pinned", category: "Creative", suitFor: "image", mode: "image_to_video", creditPrice: 2 };
const create = (extra: object) =>
  t.http
    .post("/admin/api/templates")
    .set("token", token)
    .send({ ...body, ...extra });
const update = (id: number, change: object) => t.http.put(`/admin/api/templates/${id}`).set("token", token).send(change);
const audits = (id?: number) => t.db.auditLog.count({ where: { resource: "Template", ...(id ? { resourceId: String(id) } : {}) } });
const seeded = (mode: "image_to_video" | "text_to_image", workflow: string | null) =>
  t.db.template.create({ data: { ...body, name: `Seeded ${workflow}`, mode, workflow, engineParams: {} } });

const FLUX_ON_VIDEO = "FLUX.1 text-to-image and batches (flux-t2i) does not make image_to_video; it makes text_to_image, image_batch";
const UPSCALE =
  "1080p: Real-ESRGAN x2 then Lanczos to 1080 on the short side (video) (esrgan-upscale-video) runs only after a finished result and cannot be a template's workflow";
const NONE = "There is no workflow named no-such-flow: choose one from the list";

describe("a template's pinned workflow must make its mode", () => {
  it("refuses to create a template pinned to a workflow that does not make its mode, an upscale or no file, and writes nothing", async () => {
    const [templates, audited] = [await t.db.template.count(), await audits()];
    for (const [workflow, msg] of [
      ["flux-t2i", FLUX_ON_VIDEO],
      ["esrgan-upscale-video", UPSCALE],
      ["no-such-flow", NONE],
    ]) {
      const res = await create({ workflow }).expect(400);
      expect(res.body.msg, workflow).toBe(msg);
    }
    expect([await t.db.template.count(), await audits()]).toEqual([templates, audited]);
  });

  it("refuses a change of the workflow or of the mode alone that breaks the pin, and leaves the row and the audit log as they were", async () => {
    const tpl = await seeded("image_to_video", "ltxv-i2v");
    for (const [change, msg] of [
      [{ workflow: "flux-t2i" }, FLUX_ON_VIDEO],
      [{ workflow: "esrgan-upscale-video" }, UPSCALE],
      [{ workflow: "no-such-flow" }, NONE],
      [{ mode: "text_to_image" }, "LTX-Video image-to-video (ltxv-i2v) does not make text_to_image; it makes image_to_video, role_video"],
    ] as const) {
      const res = await update(tpl.id, { ...change, name: "Changed" }).expect(400);
      expect(res.body.msg, JSON.stringify(change)).toBe(msg);
    }
    expect(await t.db.template.findUniqueOrThrow({ where: { id: tpl.id } })).toEqual(tpl);
    expect(await audits(tpl.id)).toBe(0);
  });

  it("saves a pin that makes the mode, a mode and workflow changed together, and a cleared workflow", async () => {
    const made = await create({ workflow: "ltxv-i2v" }).expect(200);
    expect(made.body).toMatchObject({ mode: "image_to_video", workflow: "ltxv-i2v" });
    const both = await update(made.body.id, { mode: "text_to_image", workflow: "flux-t2i" }).expect(200);
    expect(both.body).toMatchObject({ mode: "text_to_image", workflow: "flux-t2i" });
    const cleared = await update(made.body.id, { mode: "image_to_video", workflow: null }).expect(200);
    expect(cleared.body).toMatchObject({ mode: "image_to_video", workflow: null });
    expect(await audits(made.body.id)).toBe(3);
  });

  it("still lets staff turn off a template pinned before this check, in a save that keeps its mode and workflow", async () => {
    const old = await seeded("image_to_video", "flux-t2i");
    const off = await update(old.id, { mode: "image_to_video", workflow: "flux-t2i", enabled: false }).expect(200);
    expect(off.body).toMatchObject({ enabled: false, workflow: "flux-t2i" });
  });

  it("two saves at once, one of the mode and one of the workflow, each fine alone, cannot together pin what does not fit", async () => {
    for (let round = 0; round < 5; round++) {
      const tpl = await seeded("image_to_video", "wan22-i2v-14b");
      const [mode, workflow] = await Promise.all([update(tpl.id, { mode: "role_video" }), update(tpl.id, { workflow: "wan22-flf2v-14b" })]);
      expect([mode.status, workflow.status].sort()).toEqual([200, 400]);
      const row = await t.db.template.findUniqueOrThrow({ where: { id: tpl.id } });
      expect([row.mode, row.workflow]).toEqual(mode.status === 200 ? ["role_video", "wan22-i2v-14b"] : ["image_to_video", "wan22-flf2v-14b"]);
      expect(await audits(tpl.id)).toBe(1);
    }
  });
});
