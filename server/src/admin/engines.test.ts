import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../tests/db-utils.ts";
import { staffMember } from "../../../tests/staff-utils.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(() => t?.close());

describe("console: engine status and a template's engine and workflow", () => {
  it("shows each engine, the workflow files and the render figures to staff who read templates, and no one else", async () => {
    const marketer = await staffMember(t, ["marketer"]);
    const tpl = await t.db.template.create({
      data: { name: "T", category: "Creative", suitFor: "image", mode: "text_to_image", engineParams: {}, creditPrice: 1 },
    });
    const user = await t.db.user.create({ data: { loginType: "visitor", role: "visitor" } });
    const at = (s: number) => new Date(Date.now() - s * 1000);
    await t.db.generationTask.createMany({
      data: [
        {
          userId: user.id,
          mode: "text_to_image",
          templateId: tpl.id,
          engine: "local",
          status: "succeeded",
          cost: 1,
          input: {},
          startedAt: at(30),
          finishedAt: at(20),
        },
        {
          userId: user.id,
          mode: "text_to_image",
          templateId: tpl.id,
          engine: "local",
          status: "succeeded",
          cost: 1,
          input: {},
          startedAt: at(30),
          finishedAt: at(10),
        },
        { userId: user.id, mode: "text_to_image", engine: "local", status: "queued", cost: 1, input: {} },
      ],
    });
    const res = await t.http.get("/admin/api/engines").set("token", marketer.token).expect(200);
    expect(res.body.default).toBe("local");
    expect(res.body.engines).toEqual([expect.objectContaining({ engine: "local", label: "local draft", available: true })]);
    expect(res.body.workflows.map((w: { name: string }) => w.name)).toEqual(
      expect.arrayContaining(["wan22-i2v-14b", "wan22-ti2v-5b-i2v", "ltxv-i2v", "wan22-ti2v-5b-t2v", "sdxl-t2i", "flux-t2i", "sdxl-v2v"]),
    );
    // an upscale runs only as a follow-up of a result, so no template is offered one (decision 307)
    expect(res.body.workflows.map((w: { name: string }) => w.name)).not.toEqual(expect.arrayContaining(["esrgan-upscale-video"]));
    expect(res.body.queue).toEqual([{ engine: "local", status: "queued", count: 1 }]);
    // named as staff know it, not by its id
    expect(res.body.renders).toEqual([{ templateId: tpl.id, templateName: "T", templateNames: {}, engine: "local", renders: 2, avgSeconds: 15 }]);

    const moderator = await staffMember(t, ["moderator"]);
    await t.http.get("/admin/api/engines").set("token", moderator.token).expect(403);
    await t.http.get("/admin/api/engines").expect(401);
  });

  it("names templates in GPU costs, renders and tasks, with their names per language, never by a bare id (issue 35)", async () => {
    const [marketer, moderator] = [await staffMember(t, ["marketer"]), await staffMember(t, ["moderator"])];
    const user = await t.db.user.create({ data: { loginType: "visitor", role: "visitor" } });
    const templates = await Promise.all(
      ["Soft zoom", "Orbit"].map((name) =>
        t.db.template.create({
          data: { name, names: { ru: `${name} (ru)` }, category: "Creative", suitFor: "image", mode: "text_to_image", engineParams: {}, creditPrice: 1 },
        }),
      ),
    );
    for (const tpl of templates) {
      const task = await t.db.generationTask.create({
        data: { userId: user.id, mode: "text_to_image", templateId: tpl.id, engine: "local", status: "succeeded", cost: 1, input: {} },
      });
      await t.db.gpuRun.create({ data: { taskId: task.id, attempt: 1, templateId: tpl.id, engine: "local", workflow: "sdxl-t2i", units: 1, gpuSeconds: 4 } });
    }
    const costs = (await t.http.get("/admin/api/engines/costs").set("token", marketer.token).expect(200)).body;
    for (const tpl of templates) {
      expect(costs).toContainEqual(expect.objectContaining({ templateId: tpl.id, templateName: tpl.name, templateNames: { ru: `${tpl.name} (ru)` } }));
    }
    const tasks = (await t.http.get("/admin/api/generation-tasks?_sort=id&_order=DESC").set("token", moderator.token).expect(200)).body;
    expect(tasks.slice(0, 2).map((r: { templateName: string; templateNames: object }) => [r.templateName, r.templateNames])).toEqual([
      ["Orbit", { ru: "Orbit (ru)" }],
      ["Soft zoom", { ru: "Soft zoom (ru)" }],
    ]);
    const one = (await t.http.get(`/admin/api/generation-tasks/${tasks[0].id}`).set("token", moderator.token).expect(200)).body;
    expect(one).toMatchObject({ templateId: templates[1]!.id, templateName: "Orbit" });
  });

  it("says each workflow's tier and flags a template whose measured GPU cost exceeds its price (issue 45)", async () => {
    const marketer = await staffMember(t, ["marketer"]);
    const res = await t.http.get("/admin/api/engines").set("token", marketer.token).expect(200);
    const tiers = Object.fromEntries(res.body.workflows.map((w: { name: string; tier: string }) => [w.name, w.tier]));
    expect(tiers).toMatchObject({ "wan22-i2v-14b": "full", "wan22-i2v-14b-fast": "fast", "ltxv-distilled-i2v": "fast", "sdxl-t2i": "full" });
    const user = await t.db.user.create({ data: { loginType: "visitor", role: "visitor" } });
    const [dear, cheap] = await Promise.all(
      ["Dear", "Cheap"].map((name) =>
        t.db.template.create({ data: { name, category: "Creative", suitFor: "video", mode: "image_to_video", engineParams: {}, creditPrice: 1 } }),
      ),
    );
    // 3 credits per 5 s block; at $3.5 per GPU-hour and $0.0998 a credit, 3 credits buy ~308 GPU seconds
    for (const [tpl, workflow, gpuSeconds] of [
      [dear, "wan22-i2v-14b", 400],
      [cheap, "wan22-i2v-14b-fast", 40],
    ] as const) {
      const task = await t.db.generationTask.create({
        data: { userId: user.id, mode: "image_to_video", templateId: tpl.id, engine: "comfyui", status: "succeeded", cost: 3, input: {} },
      });
      await t.db.gpuRun.create({
        data: { taskId: task.id, attempt: 1, templateId: tpl.id, engine: "comfyui", workflow, resolution: "480P", units: 1, gpuSeconds },
      });
    }
    const costs = (await t.http.get("/admin/api/engines/costs").set("token", marketer.token).expect(200)).body;
    expect(costs).toContainEqual(expect.objectContaining({ templateId: dear.id, workflow: "wan22-i2v-14b", tier: "full", pricePerUnit: 3, loss: true }));
    expect(costs).toContainEqual(expect.objectContaining({ templateId: cheap.id, workflow: "wan22-i2v-14b-fast", tier: "fast", pricePerUnit: 3, loss: false }));
    const dearRow = costs.find((r: { templateId: number }) => r.templateId === dear.id);
    expect(dearRow.costPerUnit).toBeGreaterThan(3);
  });

  it("saves a template's engine and workflow, and refuses an unknown engine", async () => {
    const admin = await staffMember(t, ["admin"]);
    const tpl = await t.db.template.create({
      data: { name: "U", category: "Creative", suitFor: "image", mode: "text_to_image", engineParams: {}, creditPrice: 1 },
    });
    const ok = await t.http.put(`/admin/api/templates/${tpl.id}`).set("token", admin.token).send({ engine: "comfyui", workflow: "flux-t2i" }).expect(200);
    expect(ok.body).toMatchObject({ engine: "comfyui", workflow: "flux-t2i" });
    const cleared = await t.http.put(`/admin/api/templates/${tpl.id}`).set("token", admin.token).send({ engine: "", workflow: "" }).expect(200);
    expect(cleared.body).toMatchObject({ engine: null, workflow: null });
    const bad = await t.http.put(`/admin/api/templates/${tpl.id}`).set("token", admin.token).send({ engine: "gpu9000" }).expect(400);
    expect(bad.body.msg).toMatch(/engine must be one of local, comfyui, serverless/);
    await t.http.put(`/admin/api/templates/${tpl.id}`).set("token", admin.token).send({ workflow: "../etc/passwd" }).expect(400);
  });
});
