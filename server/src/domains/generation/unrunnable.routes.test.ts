import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visitor } from "../../../../tests/db-utils.ts";
import { ALL_MODELS, startFakeComfy, type FakeComfy } from "../../../../tests/fixtures/fake-comfyui.ts";
import { photo } from "../../../../tests/fixtures/media.ts";
import { grant, startComfyTestApp, waitForTask } from "../../../../tests/generation-utils.ts";
import type { startTestServer } from "../../../../tests/server-utils.ts";
import { staffMember } from "../../../../tests/staff-utils.ts";

/**
 * Issue 34, defects 1 and 4 through the API: a job whose workflow no server can run is refused before any charge when
 * that is known, and fails within seconds (not at its time-out) with the true reason when it turns out so later.
 */
let fake: FakeComfy;
let s: Awaited<ReturnType<typeof startTestServer>>;
let stopApp: () => Promise<void>;

beforeAll(async () => {
  // only the 5B Wan model on disk: image to video runs, the 14B workflow does not
  fake = await startFakeComfy({ models: { ...ALL_MODELS, diffusion_models: ["wan2.2_ti2v_5B_fp16.safetensors", "flux1-dev.safetensors"] } });
  ({ app: s, stop: stopApp } = await startComfyTestApp(fake.url, {
    // one job at a time: the next task runs only if the failed one gave its slot back
    WORKER_CONCURRENCY: "1",
  }));
}, 60_000);
afterAll(async () => {
  await stopApp?.();
  await fake?.close();
});

const template = (workflow: string | null) =>
  s.db.template.create({
    data: { name: `T ${workflow}`, category: "Creative", suitFor: "image", mode: "image_to_video", engineParams: {}, creditPrice: 1, workflow },
  });

describe("a job whose workflow no server can run", () => {
  it("a template pinned to a workflow no server offers: the price says unavailable and the submit is refused with 503, charging nothing", async () => {
    const pinned = await template("wan22-i2v-14b");
    const loose = await template(null);
    const quote = async (id: number) =>
      (await s.http.post("/api/Generation/getDurationPoints").send({ template_id: id, resolution: "480P", duration: 5 }).expect(200)).body.data;
    expect(await quote(pinned.id)).toMatchObject({ available: false });
    expect(await quote(loose.id)).toMatchObject({ available: true });
    const u = await visitor(s);
    await grant(s, u.userId, 10);
    const imageId = (
      await s.http
        .post("/api/ImageUpload/upload")
        .set("token", u.token)
        .attach("file", await photo(320, 240), "p.jpg")
        .field("consent", "1")
        .expect(200)
    ).body.data.id as number;
    const res = await s.http.post("/api/Generation/picVideoSubmit").set("token", u.token).send({ image_id: imageId, template_id: pinned.id, duration: 1 });
    expect(res.status).toBe(503);
    expect((await s.services.credits.balance(u.userId)).points).toBe(10);
    expect(await s.db.generationTask.count({ where: { userId: u.userId } })).toBe(0);
  }, 60_000);

  it("a model file gone after the check: fails within 30 s with the node's refusal, refunded once, and frees its worker slot", async () => {
    const u = await visitor(s);
    await grant(s, u.userId, 10);
    fake.removeModel("checkpoints", "sd_xl_base_1.0.safetensors");
    const started = Date.now();
    const res = await s.http.post("/api/Generation/textPicSubmit").set("token", u.token).send({ prompt: "a lighthouse" }).expect(200);
    const task = await waitForTask(s, res.body.data.id, 30_000);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(task.status).toBe("failed");
    // the true reason, for the console: node id, class and ComfyUI's own words; tried once, not at every attempt
    expect(task.error).toMatch(/node \d+ \(CheckpointLoaderSimple\) value_not_in_list: ckpt_name: 'sd_xl_base_1.0.safetensors' not in/);
    expect(task.attempts).toBe(1);
    expect(fake.recorded.prompts).toHaveLength(0);
    expect(await s.db.ledgerEntry.count({ where: { userId: u.userId, reason: "generation_refund" } })).toBe(1);
    expect((await s.services.credits.balance(u.userId)).points).toBe(10);
    // the person reads the generic wording: this was an image, not a video
    const d = (await s.http.get(`/api/Generation/picVideoSubmitDetails?id=${task.id}`).set("token", u.token).expect(200)).body.data;
    expect(d.msg).toBe("Generation failed");
    // the only worker slot is free again: the next image (the mode's other workflow, flux) runs
    const next = await s.http.post("/api/Generation/textPicSubmit").set("token", u.token).send({ prompt: "a harbour" }).expect(200);
    expect((await waitForTask(s, next.body.data.id, 30_000)).status).toBe("succeeded");
    expect(fake.recorded.prompts.at(-1)?.prompt).toSatisfy((p: Record<string, { class_type?: string }>) =>
      Object.values(p).some((n) => n.class_type === "FluxGuidance"),
    );
  }, 90_000);

  it("a template that cannot run: saving it warns, and the studio lists it as unavailable until it can", async () => {
    const marketer = await staffMember(s, ["marketer"]);
    const body = { name: "Big Wan", category: "Creative", suitFor: "image", mode: "image_to_video", creditPrice: 2 };
    const pinned = await s.http
      .post("/admin/api/templates")
      .set("token", marketer.token)
      .send({ ...body, workflow: "wan22-i2v-14b" })
      .expect(200);
    expect(pinned.body.warning).toMatch(/cannot make this kind of generation right now.*workflow wan22-i2v-14b/);
    const unset = await s.http
      .post("/admin/api/templates")
      .set("token", marketer.token)
      .send({ ...body, engine: "serverless" })
      .expect(200);
    expect(unset.body.warning).toMatch(/The serverless engine is not configured/);
    const fine = await s.http
      .post("/admin/api/templates")
      .set("token", marketer.token)
      .send({ ...body, workflow: "ltxv-i2v" })
      .expect(200);
    expect(fine.body.warning).toBeNull();
    const list = (await s.http.get("/api/Index/getTemplatesList").expect(200)).body.data.list as { id: number; available: boolean }[];
    const shown = (id: number) => list.find((t) => t.id === id)?.available;
    expect([shown(pinned.body.id), shown(unset.body.id), shown(fine.body.id)]).toEqual([false, false, true]);
  }, 60_000);
});
