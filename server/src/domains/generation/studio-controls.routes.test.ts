import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visitor } from "../../../../tests/db-utils.ts";
import { GENERATION_TEST_ENV, grant, startWorkerFor, waitForTask } from "../../../../tests/generation-utils.ts";
import { photo } from "../../../../tests/fixtures/media.ts";
import { startTestServer } from "../../../../tests/server-utils.ts";
import { GENERATION_MODES } from "../../contract/generation.ts";
import { probe } from "../../storage/media-tools.ts";

/**
 * Issue 31: the quote says which studio controls the engine honours (decision 273), and those reach the render. The
 * local draft renderer: the photo modes take none (the template's motion, the photo's shape), text to video and the
 * image modes take the prompt, aspect and seed, and the image modes a reference picture. (The ComfyUI side, read from
 * the workflow bindings, is checked in comfyui.routes.test.ts against the fake server's recorded prompts.)
 */
let s: Awaited<ReturnType<typeof startTestServer>>;
let worker: { stop(): Promise<void> };
let user: { token: string; userId: number };
let tmp: string;

beforeAll(async () => {
  s = await startTestServer(GENERATION_TEST_ENV);
  worker = await startWorkerFor(s);
  user = await visitor(s);
  await grant(s, user.userId, 100);
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "studio-controls-"));
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await s?.stop();
  await fs.rm(tmp, { recursive: true, force: true });
});

const quote = async (body: object) => (await s.http.post("/api/Generation/getDurationPoints").send(body).expect(200)).body.data;
const submit = async (call: string, body: object) => (await s.http.post(`/api/Generation/${call}`).set("token", user.token).send(body).expect(200)).body.data;

describe("studio controls on the local engine", () => {
  it("the quote lists, per mode, the controls the local engine honours", async () => {
    const expected: Record<string, string[]> = {
      image_to_video: [],
      audio_overlay: [],
      video_to_video: [],
      role_video: [],
      text_to_video: ["prompt", "aspect", "seed"],
      text_to_image: ["prompt", "image", "aspect", "seed"],
      image_batch: ["prompt", "image", "aspect", "seed"],
    };
    for (const mode of GENERATION_MODES) {
      const type = mode === "text_to_image" || mode === "image_batch" ? "image" : "video";
      expect((await quote({ type, mode, duration: 5 })).controls, mode).toEqual(expected[mode]);
    }
  });

  it("text to video is quoted as it is charged, and its prompt, aspect and seed reach the render", async () => {
    const q = await quote({ type: "video", mode: "text_to_video", resolution: "480P", duration: 2 });
    expect(q).toMatchObject({ available: true, engine: "local" });
    const task = await submit("textVideoSubmit", { prompt: "rain on a window", aspect: "9:16", seed: 77, resolution: "480P", duration: 2 });
    expect(task.cost).toBe(q.points);
    const done = await waitForTask(s, task.id, 60_000);
    expect(done.status).toBe("succeeded");
    expect(done.input).toMatchObject({ prompt: "rain on a window", aspect: "9:16", seed: 77 });
    const d = (await s.http.get(`/api/Generation/picVideoSubmitDetails?id=${task.id}`).set("token", user.token).expect(200)).body.data;
    const file = path.join(tmp, "t2v.mp4");
    await fs.writeFile(file, Buffer.from(await (await fetch(new URL(d.video_url, s.url))).arrayBuffer()));
    // 9:16 at 480P: the drawn opening picture is portrait, and so is the video
    expect((await probe(file)).video).toMatchObject({ width: 480, height: 854 });
  }, 90_000);

  it("a reference picture reaches the image render and changes it", async () => {
    const up = await s.http
      .post("/api/ImageUpload/upload")
      .set("token", user.token)
      .field("consent", "1")
      .attach("file", await photo(400, 400), "ref.jpg");
    const imageId = up.body.data.id as number;
    const body = { prompt: "a quiet harbour", seed: 5, aspect: "1:1" };
    const [plain, guided] = [await submit("textPicSubmit", body), await submit("textPicSubmit", { ...body, image_id: imageId })];
    const [a, b] = [await waitForTask(s, plain.id, 60_000), await waitForTask(s, guided.id, 60_000)];
    expect([a.status, b.status]).toEqual(["succeeded", "succeeded"]);
    expect(b.input).toMatchObject({ imageKey: expect.any(String), sources: { image_id: imageId } });
    const bytes = async (id: number) => {
      const d = (await s.http.get(`/api/Generation/picVideoSubmitDetails?id=${id}`).set("token", user.token).expect(200)).body.data;
      // pixels, not file bytes: the delivered file also carries its own content credentials
      return sharp(Buffer.from(await (await fetch(new URL(d.image_url, s.url))).arrayBuffer()))
        .raw()
        .toBuffer();
    };
    // the same prompt and seed without the picture draws another image: the picture was used, not dropped
    expect((await bytes(plain.id)).equals(await bytes(guided.id))).toBe(false);
  }, 90_000);
});
