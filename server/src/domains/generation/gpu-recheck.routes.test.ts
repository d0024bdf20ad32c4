import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visitor } from "../../../../tests/db-utils.ts";
import { ALL_MODELS, startFakeComfy, type FakeComfy } from "../../../../tests/fixtures/fake-comfyui.ts";
import { GENERATION_TEST_ENV, grant, startWorkerFor, waitForTask } from "../../../../tests/generation-utils.ts";
import { startTestServer } from "../../../../tests/server-utils.ts";
import { staffMember } from "../../../../tests/staff-utils.ts";
import { announceGpuCheck } from "./engines/gpu-rechecks.ts";

/**
 * Issue 44 item 6: one check, one state. Two API instances share the database; the worker runs beside the first. A
 * model file breaks, a render is refused and the pool withdraws the workflow; the file is fixed, the console's "Check
 * now" on the other instance says runnable, and the next request runs at once, not after the 300 s workflow check.
 */
let fake: FakeComfy;
let a: Awaited<ReturnType<typeof startTestServer>>;
let b: Awaited<ReturnType<typeof startTestServer>>;
let worker: { stop(): Promise<void> };
const CHECKPOINT = "sd_xl_base_1.0.safetensors";

beforeAll(async () => {
  // no flux on disk: the SDXL checkpoint is the only way to make a picture from text
  fake = await startFakeComfy({ models: { ...ALL_MODELS, diffusion_models: ALL_MODELS.diffusion_models.filter((m) => !m.startsWith("flux")) } });
  // the workflow check at its default, 300 s: only the operator's check can bring the workflow back within this test
  const env = { ...GENERATION_TEST_ENV, GENERATION_ENGINE: "comfyui", COMFYUI_URLS: fake.url, COMFYUI_HEALTH_SECONDS: "0.3", WORKER_CONCURRENCY: "1" };
  a = await startTestServer(env);
  b = await startTestServer(env, a.testDb);
  worker = await startWorkerFor(a);
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await b?.stop();
  await a?.stop();
  await fake?.close();
});

/** Whether the instance's pool offers the text-to-picture workflow now (what its quotes and refusals read). */
const makesPictures = async (t: typeof a) => !!(await t.services.engines.status("comfyui")).workflows?.includes("sdxl-t2i");

/** Polls until `ok` holds, or fails naming what never happened. */
async function until(ok: () => Promise<boolean>, what: string, ms = 5_000) {
  for (const end = Date.now() + ms; !(await ok()); ) {
    if (Date.now() > end) throw new Error(`never within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("an operator's check updates what every instance's engine offers at once", () => {
  it("break a model file, see the refusal, fix it, press Check now on another instance: the next request runs", async () => {
    const u = await visitor(a);
    await grant(a, u.userId, 10);
    expect(await makesPictures(a)).toBe(true);
    fake.removeModel("checkpoints", CHECKPOINT);
    const refused = await b.http.post("/api/Generation/textPicSubmit").set("token", u.token).send({ prompt: "a lighthouse" }).expect(200);
    const failed = await waitForTask(a, refused.body.data.id);
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatch(/CheckpointLoaderSimple\) value_not_in_list/);
    // the refusal withdrew the workflow from the pool that ran it: this instance no longer sells pictures
    await until(async () => !(await makesPictures(a)), "the refusing pool withdraws the workflow");
    expect((await a.http.post("/api/Generation/textPicSubmit").set("token", u.token).send({ prompt: "a harbour" })).status).toBe(503);

    fake.addModel("checkpoints", CHECKPOINT);
    const admin = await staffMember(b);
    const reports = (await b.http.get("/admin/api/engines/check").set("token", admin.token).expect(200)).body as {
      workflows: { name: string; offered: boolean }[];
    }[];
    expect(reports[0].workflows.find((w) => w.name === "sdxl-t2i")?.offered).toBe(true);
    // the check on b reached a's engine (and its worker) through the database, well before the 300 s check
    const started = Date.now();
    await until(() => makesPictures(a), "the instance that refused offers pictures again");
    expect(Date.now() - started).toBeLessThan(5_000);
    const next = await a.http.post("/api/Generation/textPicSubmit").set("token", u.token).send({ prompt: "a harbour" }).expect(200);
    expect((await waitForTask(a, next.body.data.id)).status).toBe("succeeded");
    expect(fake.recorded.prompts.at(-1)?.prompt).toSatisfy((p: Record<string, { class_type?: string }>) =>
      Object.values(p).some((n) => n.class_type === "CheckpointLoaderSimple"),
    );
  }, 90_000);

  it("`npm run gpu:check` tells every running instance: a file gone stops the sale everywhere before anyone is charged", async () => {
    expect(await makesPictures(a)).toBe(true);
    expect(await makesPictures(b)).toBe(true);
    fake.removeModel("checkpoints", CHECKPOINT);
    try {
      await announceGpuCheck(a.testDb.url, [fake.url]);
      await until(async () => !(await makesPictures(a)) && !(await makesPictures(b)), "both instances stop offering pictures");
      const u = await visitor(b);
      await grant(b, u.userId, 10);
      expect((await b.http.post("/api/Generation/textPicSubmit").set("token", u.token).send({ prompt: "a harbour" })).status).toBe(503);
      expect((await b.services.credits.balance(u.userId)).points).toBe(10);
    } finally {
      fake.addModel("checkpoints", CHECKPOINT);
    }
    await announceGpuCheck(a.testDb.url, [fake.url]);
    await until(async () => (await makesPictures(a)) && (await makesPictures(b)), "both instances offer pictures again");
  }, 60_000);
});
