import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visitor } from "../../../../tests/db-utils.ts";
import { loraSafetensors } from "../../../../tests/fixtures/lora-files.ts";
import { GENERATION_TEST_ENV, grant, readSse, startWorkerFor, waitForTask } from "../../../../tests/generation-utils.ts";
import { audio, mediaDir, photo, video } from "../../../../tests/fixtures/media.ts";
import { startTestServer } from "../../../../tests/server-utils.ts";
import { seedTemplates } from "../templates/templates.seed.ts";
import { VIDEO_MODES } from "../../contract/generation.ts";
import { MSG } from "../../http/messages.ts";
import { probe } from "../../storage/media-tools.ts";

let s: Awaited<ReturnType<typeof startTestServer>>;
let worker: { stop(): Promise<void> };
let media: Awaited<ReturnType<typeof mediaDir>>;
let user: { token: string; userId: number };
let tmp: string;

beforeAll(async () => {
  s = await startTestServer(GENERATION_TEST_ENV);
  await seedTemplates(s.db, { config: s.config });
  worker = await startWorkerFor(s);
  media = await mediaDir();
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "gen-out-"));
  user = await visitor(s);
  await grant(s, user.userId, 200);
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await s?.stop();
  await media?.cleanup();
  await fs.rm(tmp, { recursive: true, force: true });
});

const post = (p: string, body: object, token = user.token) => s.http.post(p).set("token", token).send(body);
const uploadFile = async (p: string, buf: Buffer, name: string, fields: Record<string, string> = { consent: "1" }, token = user.token) => {
  let req = s.http.post(p).set("token", token).attach("file", buf, name);
  for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
  const res = await req.expect(200);
  return res.body.data.id as number;
};
const templateId = async (params: Record<string, string>) => {
  const all = await s.db.template.findMany();
  return all.find((t) => Object.entries(params).every(([k, v]) => (t.engineParams as Record<string, string>)[k] === v))!.id;
};
/** Local media URLs are relative: they resolve against the address the client used. */
const served = (url: string) => new URL(url, s.url).toString();
async function download(url: string): Promise<string> {
  const res = await fetch(served(url));
  expect(res.status).toBe(200);
  const file = path.join(tmp, `${Math.random().toString(36).slice(2)}.bin`);
  await fs.writeFile(file, Buffer.from(await res.arrayBuffer()));
  return file;
}
const details = async (id: number, token = user.token) =>
  (await s.http.get(`/api/Generation/picVideoSubmitDetails?id=${id}`).set("token", token).expect(200)).body.data;

describe("every mode: submit -> progress events -> success, checked with ffprobe", () => {
  it("renders image to video, audio overlay, video to video, text and role videos, text to image and batches", async () => {
    const imageId = await uploadFile("/api/ImageUpload/upload", await photo(400, 300), "p.jpg");
    const portraitId = await uploadFile("/api/ImageUpload/upload", await photo(300, 400, "png"), "q.png");
    const audioId = await uploadFile("/api/ImageUpload/audioFromMedia", await audio(media.dir, 8), "a.mp3", { consent: "1", start: "0", end: "5" });
    const videoId = await uploadFile("/api/ImageUpload/videoFromMedia", await video(media.dir, 4), "v.mp4");
    // a trained character model: its checked weights in storage (issue 14)
    const artifactKey = `u/${user.userId}/models/test.safetensors`;
    await s.services.storage.put(artifactKey, loraSafetensors(), "application/octet-stream");
    const model = await s.db.characterModel.create({
      data: {
        userId: user.userId,
        name: "Me",
        homeLink: `me${user.userId}`,
        coverUploadId: portraitId,
        cost: 5,
        status: "success",
        artifactKey,
        triggerWord: "rvtest",
      },
    });

    const stream = readSse(`${s.url}/api/Generation/progress`, user.token, (ev) => ev.filter((e) => e.state === "succeeded").length >= 8, 110_000);
    const jobs = [
      {
        call: "picVideoSubmit",
        body: { image_id: imageId, template_id: await templateId({ motion: "parallax" }), resolution: "480P", duration: 2 },
        video: [640, 480, 2],
        audio: false,
      },
      { call: "picVideoSubmit", body: { image_id: imageId, audio_id: audioId, resolution: "720P", duration: 3 }, video: [960, 720, 3], audio: true },
      {
        call: "picVideoSubmit",
        body: { video_id: videoId, template_id: await templateId({ look: "noir" }), resolution: "480P", duration: 2 },
        video: [640, 480, 2],
        audio: true,
      },
      { call: "textVideoSubmit", body: { prompt: "sunset over the ocean", resolution: "480P", duration: 2 }, video: [480, 480, 2], audio: false },
      {
        call: "roleVideoSubmit",
        body: { role_id: model.id, template_id: await templateId({ motion: "rotate" }), resolution: "480P", duration: 2 },
        video: [480, 640, 2],
        audio: false,
      },
      { call: "textPicSubmit", body: { prompt: "neon city at night", aspect: "16:9" }, image: [1024, 576], count: 1 },
      { call: "imageBatchModel", body: { prompt: "misty forest", count: 2 }, image: [1024, 1024], count: 2 },
      { call: "generativeModel", body: { prompt: "golden light", image_id: imageId }, image: [1024, 1024], count: 1 },
    ];
    const ids: number[] = [];
    for (const j of jobs) {
      const res = await post(`/api/Generation/${j.call}`, j.body).expect(200);
      expect(res.body.data.status).toBe("to be generated");
      ids.push(res.body.data.id);
    }
    const events = await stream;
    for (const [i, j] of jobs.entries()) {
      const mine = events.filter((e) => e.id === ids[i]);
      expect(
        mine.some((e) => e.status === "generating"),
        `${j.call} reported generating`,
      ).toBe(true);
      expect(mine.at(-1)!.status).toBe("generated successfully");
      const d = await details(ids[i]);
      expect(d.status).toBe("generated successfully");
      expect(d.progress).toBe(100);
      // the local engine does not apply a character model's LoRA and says so
      expect(d.label).toBe(j.call === "roleVideoSubmit" ? "local draft, character model not applied" : "local draft");
      expect(d.cost).toBeGreaterThan(0);
      expect((await fetch(served(d.poster_url))).status).toBe(200);
      if (j.video) {
        const p = await probe(await download(d.video_url));
        expect(p.video).toMatchObject({ codec: "h264", width: j.video[0], height: j.video[1], pixFmt: "yuv420p" });
        expect(Math.abs(p.durationSec - j.video[2])).toBeLessThanOrEqual(0.1);
        if (j.audio) expect(p.audio?.codec).toBe("aac");
        else expect(p.audio).toBeUndefined();
      } else {
        expect(d.image_urls).toHaveLength(j.count);
        const p = await probe(await download(d.image_urls[0]));
        expect([p.video?.width, p.video?.height]).toEqual(j.image);
      }
    }
  }, 120_000);

  it("streams one task until it ends", async () => {
    const id = (await post("/api/Generation/textPicSubmit", { prompt: "one task stream" }).expect(200)).body.data.id;
    const events = await readSse(`${s.url}/api/Generation/progress?id=${id}`, user.token);
    expect(events.at(-1)).toMatchObject({ id, status: "generated successfully", progress: 100 });
    const percents = events.map((e) => e.progress);
    expect([...percents].sort((a, b) => a - b)).toEqual(percents);
  });
});

describe("live progress across API instances", () => {
  it("a stream on one instance hears a task submitted on another (through PostgreSQL, not memory)", async () => {
    const other = await startTestServer(GENERATION_TEST_ENV, s.testDb);
    try {
      const stream = readSse(`${other.url}/api/Generation/progress`, user.token, (ev) => ev.some((e) => e.state === "succeeded"));
      const id = (await post("/api/Generation/textPicSubmit", { prompt: "across instances" }).expect(200)).body.data.id;
      const events = await stream;
      expect(events.filter((e) => e.id === id).map((e) => e.status)).toContain("generated successfully");
    } finally {
      await other.stop();
    }
  });
});

describe("prices, limits and messages", () => {
  it("quotes before submitting and charges exactly the quote", async () => {
    const quote = async (b: object) => (await s.http.post("/api/Generation/getDurationPoints").send(b).expect(200)).body.data.points;
    expect(await quote({ resolution: "480P", duration: 5 })).toBe(1);
    expect(await quote({ resolution: "720P", duration: 5 })).toBe(2);
    expect(await quote({ resolution: "480P", duration: 10 })).toBe(2);
    expect(await quote({ resolution: "720P", duration: 12 })).toBe(6);
    expect(await quote({ resolution: "480P", duration: 5, template_id: await templateId({ motion: "parallax" }) })).toBe(2);

    const u = await visitor(s);
    await grant(s, u.userId, 10);
    const imageId = await uploadFile("/api/ImageUpload/upload", await photo(), "x.jpg", { consent: "1" }, u.token);
    const res = await post("/api/Generation/picVideoSubmit", { image_id: imageId, resolution: "720P", duration: 6 }, u.token).expect(200);
    expect(res.body.data.cost).toBe(4);
    expect((await s.services.credits.balance(u.userId)).points).toBe(6);
  });

  it("refuses bad requests with clear messages and changes nothing", async () => {
    const u = await visitor(s);
    const imageId = await uploadFile("/api/ImageUpload/upload", await photo(), "x.jpg", { consent: "1" }, u.token);
    const before = await s.db.generationTask.count();
    const msg = async (p: string, b: object, status = 400) => (await post(p, b, u.token).expect(status)).body.msg;
    expect(await msg("/api/Generation/picVideoSubmit", { resolution: "480P", duration: 5 })).toBe(MSG.choosePicture);
    expect(await msg("/api/Generation/picVideoSubmit", { image_id: imageId, duration: 41 })).toBe(MSG.durationLimit);
    expect(await msg("/api/Generation/picVideoSubmit", { image_id: imageId, resolution: "1080P" })).toBe("resolution must be 480P or 720P");
    expect(await msg("/api/Generation/textVideoSubmit", { prompt: "  " })).toBe("Please enter the text or select the role");
    expect(await msg("/api/Generation/roleVideoSubmit", {})).toBe(MSG.textOrRole);
    expect(await msg("/api/Generation/textPicSubmit", {})).toBe(MSG.textOrRole);
    expect(await msg("/api/Generation/picVideoSubmit", { image_id: imageId, duration: 5 }, 402)).toBe("Please get points first");
    expect(await s.db.generationTask.count()).toBe(before);
  });

  it("uses a free generation first and reports what is left", async () => {
    const u = await visitor(s);
    await s.db.user.update({ where: { id: u.userId }, data: { freeGenerations: 1 } });
    expect((await s.http.get("/api/ImageUpload/user_free_num").set("token", u.token).expect(200)).body.data.free_num).toBe(1);
    const imageId = await uploadFile("/api/ImageUpload/upload", await photo(), "x.jpg", { consent: "1" }, u.token);
    const res = await post("/api/Generation/picVideoSubmit", { image_id: imageId, resolution: "480P", duration: 2 }, u.token).expect(200);
    expect(res.body.data.paid_with).toBe("free");
    expect((await s.http.get("/api/ImageUpload/user_free_num").set("token", u.token).expect(200)).body.data.free_num).toBe(0);
    expect((await waitForTask(s, res.body.data.id)).status).toBe("succeeded");
    await post("/api/Generation/picVideoSubmit", { image_id: imageId, resolution: "480P", duration: 2 }, u.token).expect(402);
  });

  it("creates one task for a submit retried with the same idempotency key", async () => {
    const u = await visitor(s);
    await grant(s, u.userId, 5);
    const body = { prompt: "same key twice", idempotency_key: "k-1" };
    const [a, b] = await Promise.all([post("/api/Generation/textPicSubmit", body, u.token), post("/api/Generation/textPicSubmit", body, u.token)]);
    expect(a.body.data.id).toBe(b.body.data.id);
    const c = await post("/api/Generation/textPicSubmit", body, u.token).expect(200);
    expect(c.body.data.id).toBe(a.body.data.id);
    expect((await s.services.credits.balance(u.userId)).points).toBe(4);
  });
});

describe("failures, expiry and ownership", () => {
  it("an engine error fails the task after its retries and refunds exactly once", async () => {
    const u = await visitor(s);
    await grant(s, u.userId, 3);
    const imageId = await uploadFile("/api/ImageUpload/upload", await photo(), "x.jpg", { consent: "1" }, u.token);
    const row = await s.db.upload.findUniqueOrThrow({ where: { id: imageId } });
    await s.services.storage.put(row.storageKey, Buffer.from("this is no longer an image"), "image/jpeg");
    const id = (await post("/api/Generation/picVideoSubmit", { image_id: imageId, resolution: "480P", duration: 2 }, u.token).expect(200)).body.data.id;
    const task = await waitForTask(s, id);
    expect(task.status).toBe("failed");
    expect(task.attempts).toBe(2);
    const d = await details(id, u.token);
    expect(d.status).toBe("generation failed");
    expect(d.msg).toBe("Sorry, video generation failed");
    expect((await s.services.credits.balance(u.userId)).points).toBe(3);
    expect(await s.services.generation.fail(id, "again")).toBe(false);
    const refunds = await s.db.ledgerEntry.findMany({ where: { userId: u.userId, reason: "generation_refund" } });
    expect(refunds).toHaveLength(1);
    expect((await s.services.credits.balance(u.userId)).points).toBe(3);
  });

  it("expires results after their time and deletes the files", async () => {
    const id = (await post("/api/Generation/textPicSubmit", { prompt: "short lived" }).expect(200)).body.data.id;
    const done = await waitForTask(s, id);
    await s.db.generationTask.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const lapsed = await details(id);
    expect(lapsed.status).toBe("expired");
    expect(lapsed.image_url).toBeNull();
    expect(await s.services.generation.expireResults()).toBeGreaterThanOrEqual(1);
    expect((await s.db.generationTask.findUniqueOrThrow({ where: { id } })).status).toBe("expired");
    expect(await s.services.storage.exists(done.outputKey!)).toBe(false);
  });

  it("another user's task, its stream and its list entries are 404 / absent", async () => {
    const id = (await post("/api/Generation/textPicSubmit", { prompt: "private" }).expect(200)).body.data.id;
    await waitForTask(s, id);
    const other = await visitor(s);
    const res = await s.http.get(`/api/Generation/picVideoSubmitDetails?id=${id}`).set("token", other.token).expect(404);
    expect(res.body.msg).toBe("The access resource does not exist");
    await s.http.get(`/api/Generation/progress?id=${id}`).set("token", other.token).expect(404);
    const list = await s.http.get("/api/Generation/uploadLists?page=1&limit=10").set("token", other.token).expect(200);
    expect(list.body.data.list).toEqual([]);
    const mine = await s.http.get("/api/Generation/uploadLists?type=image&limit=50").set("token", user.token).expect(200);
    expect(mine.body.data.list.map((t: { id: number }) => t.id)).toContain(id);
    const videos = await s.http.get("/api/Generation/uploadLists?type=1&limit=50").set("token", user.token).expect(200);
    const actions = new Set(videos.body.data.list.map((t: { action: string }) => t.action));
    expect(actions.size).toBeGreaterThan(0);
    for (const a of actions) expect(VIDEO_MODES).toContain(a);
    await s.http.get("/api/Generation/uploadLists?limit=7").set("token", user.token).expect(400);
    // someone else's upload cannot be used as an input either
    const theirImage = await uploadFile("/api/ImageUpload/upload", await photo(), "x.jpg", { consent: "1" }, other.token);
    await post("/api/Generation/picVideoSubmit", { image_id: theirImage, duration: 2 }).expect(404);
  });
});

describe("templates and site content", () => {
  it("lists seeded templates with real covers, banners, prompts and settings", async () => {
    const all = (await s.http.get("/api/Index/getTemplatesList").expect(200)).body.data.list;
    expect(all.length).toBeGreaterThanOrEqual(12);
    expect(new Set(all.map((t: { category: string }) => t.category))).toEqual(new Set(["Portrait", "Lifestyle", "Creative"]));
    const cover = await fetch(served(all[0].cover_url));
    expect(cover.headers.get("content-type")).toBe("image/jpeg");
    // the filter keeps every video template and only those: some there are, and some of the whole list are not
    const videos = (await s.http.get("/api/Index/getTemplatesList?suit_for=video").expect(200)).body.data.list;
    const ids = (list: { id: number }[]) => list.map((t) => t.id).sort((x, y) => x - y);
    expect(videos.length).toBeGreaterThan(0);
    expect(videos.length).toBeLessThan(all.length);
    expect(ids(videos)).toEqual(ids(all.filter((t: { suit_for: string }) => t.suit_for === "video")));
    const video = (await s.http.get("/api/Index/getVideoTemp").expect(200)).body.data;
    expect(video.categories.length).toBe(3);
    expect((await s.http.get("/api/Index/bannerList").expect(200)).body.data.list.length).toBeGreaterThan(0);
    expect((await s.http.get("/api/Index/promptList").expect(200)).body.data.list.length).toBeGreaterThan(0);
    expect((await s.http.get("/api/Index/basicSettings").expect(200)).body.data.max_duration).toBe(40);
    const site = (await s.http.get("/api/Index/getSiteConfig").expect(200)).body.data;
    expect(site.engine).toMatchObject({ engine: "local", label: "local draft", ai: false, available: true });
    expect(site.engine.message).toMatch(/No AI engine is configured/);
    await seedTemplates(s.db, { config: s.config });
    expect((await s.http.get("/api/Index/getTemplatesList").expect(200)).body.data.list.length).toBe(all.length);

    // covers staff typed in the console pass through; a user's media key is never signed for everyone
    await s.db.template.update({ where: { id: all[0].id }, data: { coverUrl: "https://cdn.example.com/c.jpg" } });
    await s.db.template.update({ where: { id: all[1].id }, data: { coverUrl: "u/1/uploads/private.jpg" } });
    const after = (await s.http.get("/api/Index/getTemplatesList").expect(200)).body.data.list;
    expect(after.find((t: { id: number }) => t.id === all[0].id).cover_url).toBe("https://cdn.example.com/c.jpg");
    expect(after.find((t: { id: number }) => t.id === all[1].id).cover_url).toBeNull();
  });
});

describe("concurrency", () => {
  it("50 concurrent submits with credit for 20 create exactly 20 tasks", async () => {
    const u = await visitor(s);
    await grant(s, u.userId, 20);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => post("/api/Generation/textPicSubmit", { prompt: `burst ${i}` }, u.token)));
    const codes = results.map((r) => r.status);
    expect(codes.filter((c) => c === 200)).toHaveLength(20);
    expect(codes.filter((c) => c === 402)).toHaveLength(30);
    expect(await s.db.generationTask.count({ where: { userId: u.userId } })).toBe(20);
    expect((await s.services.credits.balance(u.userId)).points).toBe(0);
    const jobs = await s.db.$queryRaw<
      { n: bigint }[]
    >`SELECT count(*) AS n FROM pgboss.job WHERE name = 'generation' AND (data->>'taskId')::int IN (SELECT id FROM generation_tasks WHERE user_id = ${u.userId})`;
    expect(Number(jobs[0].n)).toBe(20);
  }, 60_000);
});
