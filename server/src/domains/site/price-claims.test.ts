import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../tests/db-utils.ts";
import { staffMember } from "../../../../tests/staff-utils.ts";
import { seedTemplates } from "../templates/templates.seed.ts";

/**
 * Issue 46 item 3: the prices every claim is made from are those of what is on sale, templates included, so a template
 * repriced in the console changes them at once.
 */
let t: TestApp;
let marketer: string;
beforeAll(async () => {
  t = await createTestApp();
  await seedTemplates(t.db, { config: t.config });
  marketer = (await staffMember(t, ["marketer"])).token;
}, 60_000);
afterAll(() => t?.close());

const ranges = async () => (await t.http.get("/api/Index/basicSettings").expect(200)).body.data.price.ranges;

describe("basicSettings' price ranges", () => {
  it("span the seeded templates (Floating Frame and Pencil Sketch cost 2 a block), follow a repricing, and drop a disabled template", async () => {
    expect(await ranges()).toEqual({ "480P": { from: 1, to: 2 }, "720P": { from: 2, to: 4 }, image: { from: 1, to: 1 } });
    const frame = await t.db.template.findFirstOrThrow({ where: { name: "Floating Frame" } });
    await t.http.put(`/admin/api/templates/${frame.id}`).set("token", marketer).send({ creditPrice: 5 }).expect(200);
    expect(await ranges()).toEqual({ "480P": { from: 1, to: 5 }, "720P": { from: 2, to: 10 }, image: { from: 1, to: 1 } });
    const bokeh = await t.db.template.findFirstOrThrow({ where: { name: "Bokeh Lights" } });
    await t.http.put(`/admin/api/templates/${bokeh.id}`).set("token", marketer).send({ creditPrice: 3 }).expect(200);
    expect((await ranges()).image).toEqual({ from: 1, to: 3 });
    await t.db.template.updateMany({ where: { creditPrice: { gt: 1 } }, data: { enabled: false } });
    expect(await ranges()).toEqual({ "480P": { from: 1, to: 1 }, "720P": { from: 2, to: 2 }, image: { from: 1, to: 1 } });
  });
});
