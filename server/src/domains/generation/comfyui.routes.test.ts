import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visitor } from "../../../../tests/db-utils.ts";
import { startFakeComfy, type FakeComfy } from "../../../../tests/fixtures/fake-comfyui.ts";
import { audio, mediaDir, photo, video } from "../../../../tests/fixtures/media.ts";
import { GENERATION_TEST_ENV, grant, readSse, startWorkerFor, waitForTask } from "../../../../tests/generation-utils.ts";
import { startTestServer } from "../../../../tests/server-utils.ts";
import { generationJobHandler } from "../../worker/generation.worker.ts";
import { probe } from "../../storage/media-tools.ts";
import { silentLog } from "../../../../tests/db-utils.ts";

/** The comfyui engine end to end: two API instances, two workers, two fake ComfyUI servers. */
let a: FakeComfy;
let b: FakeComfy;
let s1: Awaited<ReturnType<typeof startTestServer>>;
let s2: Awaited<ReturnType<typeof startTestServer>>;
let workers: { stop(): Promise<void> }[] = [];
let media: Awaited<ReturnType<typeof mediaDir>>;
let user: { token: string; userId: number };

beforeAll(async () => {
  [a, b] = await Promise.all([startFakeComfy({ msPerStep: 5 }), startFakeComfy({ msPerStep: 5 })]);
  media = await mediaDir();
  // the instances share media storage and its URL key, as several API processes behind one load balancer do
  const shared = { DATA_DIR: path.join(media.dir, "data"), MEDIA_URL_SECRET: "comfyui-routes-test-secret" };
  const env = {
    ...shared,
    ...GENERATION_TEST_ENV,
    GENERATION_ENGINE: "comfyui",
    COMFYUI_URLS: `${a.url},${b.url}`,
    COMFYUI_HEALTH_SECONDS: "0.3",
    COMFYUI_MAX_TRIES: "2",
    IMAGE_CREDIT_PRICE: "2",
  };
  s1 = await startTestServer(env);
  s2 = await startTestServer(env, s1.testDb);
  workers = [await startWorkerFor(s1), await startWorkerFor(s2)];
  user = await visitor(s1);
  await grant(s1, user.userId, 200);
}, 60_000);
afterAll(async () => {
  for (const w of workers) await w.stop();
  await s2?.stop();
  await s1?.stop();
  await Promise.all([a?.close(), b?.close(), media?.cleanup()]);
});

/** What the quote says each mode's workflow honours (decision 273): read from the bindings the pool will run. */
const VIDEO_CONTROLS = ["prompt", "aspect", "seed", "negative_prompt"];
const IMAGE_CONTROLS = ["prompt", "image", "aspect", "seed", "negative_prompt", "strength"];
const CONTROLS: Record<string, string[]> = {
  // a second photo (a transition) and a camera move: the servers have both workflows (issue 33)
  image_to_video: ["prompt", "end_image", "camera", "aspect", "seed", "negative_prompt"],
  // lip-synced: the sound drives the picture (issue 33, decision 305)
  audio_overlay: ["prompt", "audio", "aspect", "seed", "negative_prompt"],
  // copying the video's motion onto a photo beside the restyle (issue 33): the servers have Wan Animate
  video_to_video: ["prompt", "motion", "aspect", "seed", "negative_prompt", "strength"],
  text_to_video: VIDEO_CONTROLS,
  text_to_image: IMAGE_CONTROLS,
  image_batch: IMAGE_CONTROLS,
};

const prompts = () => a.recorded.prompts.length + b.recorded.prompts.length;
const upload = async (p: string, buf: Buffer, name: string, fields: Record<string, string> = { consent: "1" }) => {
  let req = s1.http.post(p).set("token", user.token).attach("file", buf, name);
  for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
  return (await req.expect(200)).body.data.id as number;
};
const details = async (id: number) => (await s2.http.get(`/api/Generation/picVideoSubmitDetails?id=${id}`).set("token", user.token).expect(200)).body.data;
async function download(url: string) {
  const file = path.join(media.dir, `${Math.random().toString(36).slice(2)}.bin`);
  // browser media URLs are relative (decision 066): fetched from the instance, as a page on it would
  await fs.writeFile(file, Buffer.from(await (await fetch(new URL(url, s1.url))).arrayBuffer()));
  return file;
}

describe("comfyui engine through the API", () => {
  it("runs each mode: submit -> progress -> stored output, labelled AI, seed shown with re-run settings", async () => {
    const imageId = await upload("/api/ImageUpload/upload", await photo(640, 360), "p.jpg");
    const videoId = await upload("/api/ImageUpload/videoFromMedia", await video(media.dir, 4), "v.mp4");
    const audioId = await upload("/api/ImageUpload/audioFromMedia", await audio(media.dir, 6), "a.mp3", { consent: "1", start: "0", end: "5" });
    const jobs = [
      { call: "picVideoSubmit", mode: "image_to_video", body: { image_id: imageId, prompt: "she turns", seed: 42, duration: 1 }, video: [848, 480] },
      { call: "picVideoSubmit", mode: "audio_overlay", body: { image_id: imageId, audio_id: audioId, duration: 1 }, video: [848, 480], audio: true },
      { call: "picVideoSubmit", mode: "video_to_video", body: { video_id: videoId, strength: 0.4, aspect: "16:9", duration: 4 }, video: [848, 480] },
      { call: "textVideoSubmit", mode: "text_to_video", body: { prompt: "rain on a window", aspect: "9:16", duration: 1 }, video: [480, 864] },
      {
        call: "textPicSubmit",
        mode: "text_to_image",
        body: { prompt: "a lighthouse", negative_prompt: "people", aspect: "16:9" },
        image: [1344, 768],
        count: 1,
      },
      { call: "imageBatchModel", mode: "image_batch", body: { prompt: "cats", count: 2, aspect: "1:1" }, image: [1024, 1024], count: 2 },
      // a reference picture (image to image, issue 31): the image workflow with the photo and its strength
      { call: "textPicSubmit", mode: "text_to_image", body: { prompt: "as a watercolour", image_id: imageId, strength: 0.35 }, image: [1344, 768], count: 1 },
    ];
    const stream = readSse(`${s2.url}/api/Generation/progress`, user.token, (ev) => ev.filter((e) => e.state === "succeeded").length >= jobs.length, 110_000);
    const ids: number[] = [];
    for (const j of jobs) {
      const quote = (
        await s1.http
          .post("/api/Generation/getDurationPoints")
          .send({ type: j.image ? "image" : "video", mode: j.mode, duration: j.body.duration ?? 5, count: j.count ?? 1 })
          .expect(200)
      ).body.data;
      expect(quote).toMatchObject({ engine: "comfyui", label: "AI", controls: CONTROLS[j.mode] });
      const res = await s1.http.post(`/api/Generation/${j.call}`).set("token", user.token).send(j.body).expect(200);
      expect(res.body.data.cost).toBe(quote.points);
      ids.push(res.body.data.id);
    }
    const events = await stream;
    for (const [i, j] of jobs.entries()) {
      const mine = events.filter((e) => e.id === ids[i]);
      expect(
        mine.some((e) => e.status === "generating"),
        `${j.call} reported generating`,
      ).toBe(true);
      const d = await details(ids[i]);
      expect(d).toMatchObject({ status: "generated successfully", engine: "comfyui", label: "AI" });
      expect(typeof d.seed).toBe("number");
      expect(d.settings.seed).toBe(d.seed);
      if ("seed" in j.body) expect(d.seed).toBe(42);
      if (j.video) {
        const p = await probe(await download(d.video_url));
        expect([p.video?.width, p.video?.height]).toEqual(j.video);
        if (j.audio) expect(p.audio?.codec).toBe("aac");
      } else {
        expect(d.image_urls).toHaveLength(j.count);
        const p = await probe(await download(d.image_urls[0]));
        expect([p.video?.width, p.video?.height]).toEqual(j.image);
      }
    }
    // each task records which workflow its try ran on which server (the console's task view)
    for (const t of await s1.db.generationTask.findMany({ where: { id: { in: ids } } })) {
      expect(t.runs).toEqual([{ attempt: 1, workflow: expect.any(String), server: expect.stringMatching(/^http:\/\/127\.0\.0\.1:/), at: expect.any(String) }]);
      expect([a.url, b.url]).toContain((t.runs as { server: string }[])[0].server);
    }
    // the seed and negative prompt reached the server
    const posted = [...a.recorded.prompts, ...b.recorded.prompts].map((p) => JSON.stringify(p.prompt));
    expect(posted.some((p) => p.includes('"noise_seed":42'))).toBe(true);
    expect(posted.some((p) => p.includes('"text":"people"'))).toBe(true);
    // the motion prompt of image to video, and the reference picture with its strength (issue 31)
    expect(posted.some((p) => p.includes("she turns"))).toBe(true);
    const i2i = [...a.recorded.prompts, ...b.recorded.prompts].find((p) => JSON.stringify(p.prompt).includes("as a watercolour"))!.prompt as Record<
      string,
      { class_type: string; inputs: Record<string, unknown> }
    >;
    expect(Object.values(i2i).find((n) => n.class_type === "LoadImage")?.inputs.image).toEqual(expect.any(String));
    expect(Object.values(i2i).some((n) => n.inputs.denoise === 0.35)).toBe(true);
  }, 120_000);

  it("estimates from real figures: finished renders' average time and the tasks queued ahead", async () => {
    // no worker takes a task meanwhile: all six wait, so the last one is sixth in the queue whatever the machine's speed
    for (const w of workers) await w.stop();
    const ids: number[] = [];
    try {
      for (let i = 0; i < 6; i++)
        ids.push(
          (
            await s1.http
              .post("/api/Generation/textPicSubmit")
              .set("token", user.token)
              .send({ prompt: `queue ${i}` })
              .expect(200)
          ).body.data.id,
        );
      const last = await details(ids[5]);
      expect(last).toMatchObject({ state: "queued", queue_position: 5 });
      expect((await details(ids[0])).queue_position).toBe(0);
      // text-to-image tasks finished in the test before, so there is an average to go by; five ahead wait longer than none
      const first = (await details(ids[0])).estimate_seconds as number;
      expect(first).toBeGreaterThanOrEqual(1);
      expect(last.estimate_seconds).toBeGreaterThanOrEqual(first);
    } finally {
      // the later tests need their workers whatever happened here
      workers = [await startWorkerFor(s1), await startWorkerFor(s2)];
    }
    for (const id of ids) expect((await waitForTask(s1, id, 60_000)).status).toBe("succeeded");
    const done = await details(ids[5]);
    expect(done).toMatchObject({ estimate_seconds: null, queue_position: 0 });
  }, 90_000);

  it("two API instances and two workers never queue one task twice", async () => {
    const before = prompts();
    const send = (s: typeof s1) =>
      s.http.post("/api/Generation/textPicSubmit").set("token", user.token).send({ prompt: "once", idempotency_key: "same-click" });
    const answers = await Promise.all([send(s1), send(s2), send(s1), send(s2)]);
    const ids = new Set(answers.map((r) => r.body.data.id));
    expect(ids.size).toBe(1);
    const [id] = [...ids];
    // the same job run twice more at once (as pg-boss may after a lock expiry), beside the two workers
    const handlers = [s1, s2].map((s) =>
      generationJobHandler({
        config: s.config,
        log: silentLog,
        generation: s.services.generation,
        storage: s.services.storage,
        engines: s.services.engines,
        training: s.services.training,
        provenance: s.services.provenance,
      }),
    );
    const job = { id: "dup", data: { taskId: id }, retryCount: 0, retryLimit: 1 } as unknown as Parameters<(typeof handlers)[0]>[0];
    await Promise.all(handlers.map((h) => h(job)));
    const task = await waitForTask(s1, id, 30_000);
    expect(task.status).toBe("succeeded");
    expect(prompts() - before).toBe(1);
  }, 60_000);

  it("fails and refunds exactly once when every try on every attempt fails", async () => {
    const u = await visitor(s1);
    await grant(s1, u.userId, 10);
    a.state.failNext = 10;
    b.state.failNext = 10;
    try {
      const res = await s1.http.post("/api/Generation/textPicSubmit").set("token", u.token).send({ prompt: "doomed" }).expect(200);
      expect((await s1.services.credits.balance(u.userId)).points).toBe(8);
      const task = await waitForTask(s1, res.body.data.id, 60_000);
      expect(task.status).toBe("failed");
      expect(task.error).toMatch(/CUDA out of memory/);
      expect(await s1.db.ledgerEntry.count({ where: { userId: u.userId, reason: "generation_refund" } })).toBe(1);
      expect((await s1.services.credits.balance(u.userId)).points).toBe(10);
    } finally {
      a.state.failNext = 0;
      b.state.failNext = 0;
    }
  }, 90_000);
});
