import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visitor } from "../../../../tests/db-utils.ts";
import { startFakeComfy, type FakeComfy } from "../../../../tests/fixtures/fake-comfyui.ts";
import { photo } from "../../../../tests/fixtures/media.ts";
import { GENERATION_TEST_ENV, grant, startWorkerFor, waitForTask } from "../../../../tests/generation-utils.ts";
import { startTestServer } from "../../../../tests/server-utils.ts";
import { staffMember } from "../../../../tests/staff-utils.ts";

/**
 * Issue 34, defect 10: a GPU price follows the cost class of the workflow that will run (heavy Wan 2.2 14B costs three
 * times a light workflow), the quote shows it before submit, it is charged once under concurrent retries, and each
 * finished run records its GPU seconds for the console's measured cost.
 */
let comfy: FakeComfy;
let t: Awaited<ReturnType<typeof startTestServer>>;
let worker: { stop(): Promise<void> };

beforeAll(async () => {
  comfy = await startFakeComfy({ msPerStep: 2 });
  t = await startTestServer({ ...GENERATION_TEST_ENV, GENERATION_ENGINE: "comfyui", COMFYUI_URLS: comfy.url, COMFYUI_HEALTH_SECONDS: "0.3" });
  worker = await startWorkerFor(t);
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await t?.stop();
  await comfy?.close();
});

const quote = async (body: object) => (await t.http.post("/api/Generation/getDurationPoints").send(body).expect(200)).body.data.points as number;

describe("GPU prices per workflow", () => {
  it("quotes each mode at its workflow's cost class and resolution", async () => {
    // image to video runs wan22-i2v-14b (priority 10, heavy: 3 × the base 1 credit per 5 s at 480P, 2 at 720P)
    expect(await quote({ type: "video", mode: "image_to_video", resolution: "480P", duration: 5 })).toBe(3);
    expect(await quote({ type: "video", mode: "image_to_video", resolution: "720P", duration: 10 })).toBe(12);
    // text to video runs Wan 2.2 5B and video to video SDXL: light
    expect(await quote({ type: "video", mode: "text_to_video", resolution: "480P", duration: 5 })).toBe(1);
    expect(await quote({ type: "video", mode: "video_to_video", resolution: "720P", duration: 5 })).toBe(2);
    expect(await quote({ type: "image", mode: "image_batch", count: 4 })).toBe(4);
    // a template pinned to LTX-Video is light, times its own price
    const ltx = await t.db.template.create({
      data: {
        name: "LTX",
        category: "Creative",
        suitFor: "video",
        mode: "image_to_video",
        engineParams: {},
        creditPrice: 2,
        engine: "comfyui",
        workflow: "ltxv-i2v",
      },
    });
    expect(await quote({ type: "video", template_id: ltx.id, resolution: "480P", duration: 5 })).toBe(2);
  });

  it("charges the quoted price once under concurrent retries and records the run's GPU seconds", async () => {
    const user = await visitor(t);
    await grant(t, user.userId, 20);
    const upload = await t.http
      .post("/api/ImageUpload/upload")
      .set("token", user.token)
      .attach("file", await photo(640, 480), "p.jpg")
      .field("consent", "1")
      .expect(200);
    const body = { image_id: upload.body.data.id, duration: 5, resolution: "480P", idempotency_key: "gpu-price-1" };
    const answers = await Promise.all(Array.from({ length: 6 }, () => t.http.post("/api/Generation/picVideoSubmit").set("token", user.token).send(body)));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    const id = answers[0].body.data.id as number;
    expect(new Set(answers.map((a) => a.body.data.id))).toEqual(new Set([id]));
    expect(answers[0].body.data.cost).toBe(3);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: user.userId } })).points).toBe(17);

    expect((await waitForTask(t, id, 60_000)).status).toBe("succeeded");
    const runs = await t.db.gpuRun.findMany({ where: { taskId: id } });
    expect(runs).toMatchObject([{ workflow: "wan22-i2v-14b", engine: "comfyui", resolution: "480P", units: 1 }]);
    expect(runs[0].gpuSeconds).toBeGreaterThan(0);

    const staff = await staffMember(t, ["marketer"]);
    const costs = (await t.http.get("/admin/api/engines/costs").set("token", staff.token).expect(200)).body;
    expect(costs).toContainEqual(expect.objectContaining({ templateId: null, workflow: "wan22-i2v-14b", resolution: "480P", runs: 1, pricePerUnit: 3 }));
    await t.http.get("/admin/api/engines/costs").set("token", user.token).expect(401);
  }, 90_000);
});
