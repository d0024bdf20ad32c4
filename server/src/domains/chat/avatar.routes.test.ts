import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visitor } from "../../../../tests/db-utils.ts";
import { startFakeComfy, type FakeComfy } from "../../../../tests/fixtures/fake-comfyui.ts";
import { mediaDir } from "../../../../tests/fixtures/media.ts";
import { GENERATION_TEST_ENV, grant, startWorkerFor, waitForTask } from "../../../../tests/generation-utils.ts";
import { startTestServer } from "../../../../tests/server-utils.ts";
import { MSG } from "../../http/messages.ts";

/**
 * Character avatars painted through the generation domain's text-to-image path: on a GPU engine (a fake ComfyUI
 * server), charged like a text-to-image, refunded once when it fails, kept as the person's image; refused before any
 * charge when only the local draft renderer could paint it.
 */
let comfy: FakeComfy;
let gpu: Awaited<ReturnType<typeof startTestServer>>;
let localOnly: Awaited<ReturnType<typeof startTestServer>>;
let worker: { stop(): Promise<void> };
let media: Awaited<ReturnType<typeof mediaDir>>;

const CARD = { name: "Mira", description: "A lighthouse keeper with silver hair and a green coat", personality: "Calm and wry", tags: ["mystery"], age: 34 };

beforeAll(async () => {
  comfy = await startFakeComfy({ msPerStep: 5 });
  media = await mediaDir();
  const shared = {
    ...GENERATION_TEST_ENV,
    DATA_DIR: path.join(media.dir, "data"),
    MEDIA_URL_SECRET: "avatar-test-secret",
    IMAGE_CREDIT_PRICE: "3",
  };
  // the default engine stays local: the avatar must still be painted by the AI engine that is configured
  gpu = await startTestServer({ ...shared, GENERATION_ENGINE: "local", COMFYUI_URLS: comfy.url, COMFYUI_HEALTH_SECONDS: "0.3", COMFYUI_MAX_TRIES: "1" });
  localOnly = await startTestServer({ ...shared, GENERATION_ENGINE: "local" }, gpu.testDb);
  worker = await startWorkerFor(gpu);
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await localOnly?.stop();
  await gpu?.stop();
  await Promise.all([comfy?.close(), media?.cleanup()]);
});

const balance = async (userId: number) => (await gpu.db.user.findUniqueOrThrow({ where: { id: userId } })).points;
const paint = (t: typeof gpu, token: string, body: object) => t.http.post("/api/RoleChat/generateAvatar").set("token", token).send(body);

describe("generated character avatars", () => {
  it("paints the card on the AI engine, charges a GPU text-to-image once, and the picture becomes the avatar", async () => {
    const user = await visitor(gpu);
    await grant(gpu, user.userId, 20);
    const prompts = comfy.recorded.prompts.length;
    // a double click: the same key twice, at once, is one picture and one charge
    const [r1, r2] = await Promise.all([
      paint(gpu, user.token, { ...CARD, idempotency_key: "av-1" }),
      paint(gpu, user.token, { ...CARD, idempotency_key: "av-1" }),
    ]);
    expect(r1.status).toBe(200);
    expect(r2.body.data.id).toBe(r1.body.data.id);
    expect(r1.body.data.cost).toBe(3);
    const task = await waitForTask(gpu, r1.body.data.id);
    expect(task).toMatchObject({ status: "succeeded", engine: "comfyui", mode: "text_to_image", cost: 3 });
    expect(await balance(user.userId)).toBe(17);
    expect(comfy.recorded.prompts.length).toBe(prompts + 1);
    // the card reached the image model, with the adult framing
    expect(JSON.stringify(comfy.recorded.prompts.at(-1))).toContain("Portrait of Mira, a 34-year-old adult");

    const kept = (await gpu.http.post("/api/RoleChat/keepAvatar").set("token", user.token).send({ task_id: task.id }).expect(200)).body.data;
    expect(kept).toMatchObject({ type: "image" });
    const png = Buffer.from(await (await fetch(new URL(kept.file_url, gpu.url))).arrayBuffer());
    expect((await sharp(png).metadata()).width).toBeGreaterThan(0);
    const saved = (
      await gpu.http
        .post("/api/RoleChat/creatCharacter")
        .set("token", user.token)
        .send({ ...CARD, avatar_image_id: kept.id })
        .expect(200)
    ).body.data;
    expect(saved.avatar_url).toMatch(/uploads/);
    // the avatar is a copy: it outlives the generation result
    const row = await gpu.db.character.findUniqueOrThrow({ where: { id: saved.id } });
    expect(row.avatarKey).not.toBe(task.outputKey);
  }, 60_000);

  it("refunds exactly once when the GPU server fails the picture", async () => {
    const user = await visitor(gpu);
    await grant(gpu, user.userId, 10);
    comfy.state.failNext = 5;
    try {
      const r = await paint(gpu, user.token, CARD).expect(200);
      const task = await waitForTask(gpu, r.body.data.id);
      expect(task.status).toBe("failed");
    } finally {
      comfy.state.failNext = 0;
    }
    expect(await balance(user.userId)).toBe(10);
    const entries = await gpu.db.ledgerEntry.findMany({ where: { userId: user.userId, reason: { not: "test" } } });
    expect(entries.map((e) => e.delta).sort()).toEqual([-3, 3]);
    const tasks = await gpu.db.generationTask.findMany({ where: { userId: user.userId } });
    await gpu.http.post("/api/RoleChat/keepAvatar").set("token", user.token).send({ task_id: tasks[0].id }).expect(400);
  }, 60_000);

  it("refuses with 503 before any charge when only the local draft renderer could paint", async () => {
    const user = await visitor(localOnly);
    await grant(gpu, user.userId, 10);
    const res = await paint(localOnly, user.token, CARD).expect(503);
    expect(res.body.msg).toBe(MSG.avatarNeedsImageModel);
    expect(await balance(user.userId)).toBe(10);
    expect(await gpu.db.generationTask.count({ where: { userId: user.userId } })).toBe(0);
  });

  it("refuses a card describing a minor, records the attempt, and charges nothing", async () => {
    const user = await visitor(gpu);
    await grant(gpu, user.userId, 10);
    const res = await paint(gpu, user.token, { ...CARD, description: "a 15-year-old schoolgirl" }).expect(400);
    expect(res.body.msg).toBe(MSG.characterMinor);
    await paint(gpu, user.token, { ...CARD, age: 16 }).expect(400);
    expect(await gpu.db.chatPolicyHit.count({ where: { userId: user.userId } })).toBe(1);
    await paint(gpu, user.token, { name: "Empty" }).expect(400);
    expect(await balance(user.userId)).toBe(10);
    expect(await gpu.db.generationTask.count({ where: { userId: user.userId } })).toBe(0);
  });

  it("another person's picture cannot be kept", async () => {
    const owner = await visitor(gpu);
    const other = await visitor(gpu);
    await grant(gpu, owner.userId, 10);
    const r = await paint(gpu, owner.token, CARD).expect(200);
    await waitForTask(gpu, r.body.data.id);
    await gpu.http.post("/api/RoleChat/keepAvatar").set("token", other.token).send({ task_id: r.body.data.id }).expect(404);
    await gpu.http.post("/api/RoleChat/keepAvatar").set("token", other.token).send({ task_id: "x" }).expect(400);
  }, 60_000);
});
