import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visitor } from "../../../../tests/db-utils.ts";
import { GENERATION_TEST_ENV, grant, startWorkerFor, waitForTask } from "../../../../tests/generation-utils.ts";
import { readEvents, type ChatEvent } from "../../../../tests/chat-utils.ts";
import { photo } from "../../../../tests/fixtures/media.ts";
import { startTestServer } from "../../../../tests/server-utils.ts";
import { staffMember } from "../../../../tests/staff-utils.ts";
import { registeredUser } from "../../../../tests/training-utils.ts";
import { CHAT_MEDIA_MESSAGES, CHAT_MEDIA_SETTING } from "../../contract/chat.ts";
import { MSG } from "../../http/messages.ts";
import { characterMedia } from "./chat-generation.ts";
import { createChatMedia, type CharacterMediaPort } from "./chat.media.ts";

/**
 * Issue 50: characters send pictures and clips of themselves. Every failure path the issue lists, then delivery on
 * the local engine. The first part runs without a worker, so a task stays "mid-render" until something ends it.
 */
let s: Awaited<ReturnType<typeof startTestServer>>;
let worker: { stop(): Promise<void> } | undefined;

beforeAll(async () => {
  s = await startTestServer({ ...GENERATION_TEST_ENV, CHAT_FREE_MESSAGES: "0" });
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await s?.stop();
});

const post = (p: string, body: object, token: string) => s.http.post(p).set("token", token).send(body);
const get = (p: string, token: string) => s.http.get(p).set("token", token);
const points = async (userId: number) => (await s.db.user.findUniqueOrThrow({ where: { id: userId } })).points;
const ledger = (taskId: number) => s.db.ledgerEntry.findMany({ where: { reference: `task:${taskId}` }, orderBy: { id: "asc" } });
const setting = (value: object) =>
  s.db.siteSetting.upsert({ where: { key: CHAT_MEDIA_SETTING }, create: { key: CHAT_MEDIA_SETTING, value }, update: { value } });

/** A person with credits, their character (with an uploaded avatar) and a conversation with it. */
async function person(credits: number, card: object = {}) {
  const u = await visitor(s);
  if (credits) await grant(s, u.userId, credits);
  const up = await s.http
    .post("/api/ImageUpload/upload")
    .set("token", u.token)
    .attach("file", await photo(256, 256), "a.jpg")
    .field("consent", "1")
    .expect(200);
  const character = (
    await post(
      "/api/RoleChat/creatCharacter",
      {
        name: "Mira",
        description: "A 29-year-old lighthouse keeper with red hair",
        greeting: "Welcome in.",
        age: 29,
        avatar_image_id: up.body.data.id,
        ...card,
      },
      u.token,
    ).expect(200)
  ).body.data;
  const conv = (await post("/api/RoleChat/creatConversation", { character_id: character.id }, u.token).expect(200)).body.data;
  return { ...u, characterId: character.id as number, conversationId: conv.id as number };
}
const ask = (p: { token: string; conversationId: number }, body: object = {}) =>
  post("/api/RoleChat/requestMedia", { conversation_id: p.conversationId, kind: "image", ...body }, p.token);
const conversation = async (p: { token: string; conversationId: number }) =>
  (await get(`/api/RoleChat/conversation?conversation_id=${p.conversationId}`, p.token).expect(200)).body.data;

describe("asking a character for a picture: refusals before any charge", () => {
  it("answers the price of each kind before the tap: an image's and a 5 s 480P clip's generation prices, labelled drafts here", async () => {
    const p = await person(0);
    const q = (await get(`/api/RoleChat/mediaQuote?conversation_id=${p.conversationId}`, p.token).expect(200)).body.data;
    expect(q.available).toBe(true);
    expect(q.image).toMatchObject({ points: s.config.IMAGE_CREDIT_PRICE, draft: true, engine: "local" });
    expect(q.video).toMatchObject({ points: s.config.GENERATION_PRICE_480P, draft: true });
    // the operator's price wins over the default
    await setting({ price: { image: 7 } });
    try {
      expect((await get(`/api/RoleChat/mediaQuote?conversation_id=${p.conversationId}`, p.token).expect(200)).body.data.image.points).toBe(7);
    } finally {
      await s.db.siteSetting.delete({ where: { key: CHAT_MEDIA_SETTING } });
    }
  });

  it("refuses bad input with 400 and another's conversation with 404, charging nothing", async () => {
    const p = await person(50);
    const other = await visitor(s);
    expect((await ask(p, { kind: "song" }).expect(400)).body.msg).toMatch(/kind must be image or video/);
    await post("/api/RoleChat/requestMedia", { kind: "image" }, p.token).expect(400);
    await ask(p, { prompt: "x".repeat(501) }).expect(400);
    await ask({ token: other.token, conversationId: p.conversationId }).expect(404);
    expect(await points(p.userId)).toBe(50);
    expect(await s.db.generationTask.count({ where: { userId: { in: [p.userId, other.userId] } } })).toBe(0);
  });

  it("never makes media where the conversation or the request places someone under 18", async () => {
    const p = await person(50);
    await s.db.chatMessage.create({
      data: { conversationId: p.conversationId, role: "user", content: "Pretend you are 15 years old now", status: "complete" },
    });
    expect((await ask(p).expect(400)).body.msg).toBe(MSG.characterMinor);
    const q = await person(50);
    expect((await ask(q, { prompt: "as a schoolgirl, naked" }).expect(400)).body.msg).toBe(MSG.chatRefused);
    expect(await s.db.chatPolicyHit.count({ where: { userId: q.userId } })).toBe(1);
    expect(await points(p.userId)).toBe(50);
    expect(await points(q.userId)).toBe(50);
    expect(await s.db.generationTask.count({ where: { userId: { in: [p.userId, q.userId] } } })).toBe(0);
  });

  it("503 before any charge where the operator turned drafts off and no GPU engine runs, or turned it off for the person's channel", async () => {
    const p = await person(50);
    await setting({ drafts: false });
    try {
      expect((await ask(p).expect(503)).body.msg).toBe(CHAT_MEDIA_MESSAGES.unavailable);
      await setting({ off_channels: ["tiktok-7"] });
      await s.db.user.update({ where: { id: p.userId }, data: { channelId: "tiktok-7" } });
      expect((await ask(p).expect(503)).body.msg).toBe(CHAT_MEDIA_MESSAGES.unavailable);
      expect((await get(`/api/RoleChat/mediaQuote?conversation_id=${p.conversationId}`, p.token).expect(200)).body.data.available).toBe(false);
    } finally {
      await s.db.siteSetting.delete({ where: { key: CHAT_MEDIA_SETTING } });
    }
    expect(await points(p.userId)).toBe(50);
    expect(await s.db.generationTask.count({ where: { userId: p.userId } })).toBe(0);
  });
});

describe("charged once, refunded once", () => {
  it("50 requests at once from one account with credit for one: one charged, one message, the rest 402", async () => {
    const p = await person(s.config.IMAGE_CREDIT_PRICE);
    const answers = await Promise.all(Array.from({ length: 50 }, () => ask(p)));
    const ok = answers.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    expect(answers.filter((r) => r.status !== 200).every((r) => r.status === 402)).toBe(true);
    expect(await points(p.userId)).toBe(0);
    expect(await s.db.ledgerEntry.count({ where: { userId: p.userId, reason: "generation" } })).toBe(1);
    expect(await s.db.chatMedia.count({ where: { message: { conversationId: p.conversationId } } })).toBe(1);
  }, 60_000);

  it("a retried request with the same key is the same task and message, charged once", async () => {
    const p = await person(50);
    const a = (await ask(p, { idempotency_key: "k1", prompt: "by the lamp" }).expect(200)).body.data;
    const b = (await ask(p, { idempotency_key: "k1", prompt: "by the lamp" }).expect(200)).body.data;
    expect(b.id).toBe(a.id);
    expect(b.message.id).toBe(a.message.id);
    expect(a).toMatchObject({ cost: s.config.IMAGE_CREDIT_PRICE, status: "to be generated" });
    expect(a.message.media).toMatchObject({ kind: "image", request: "by the lamp", state: "queued", task_id: a.id, draft: true });
    expect(await points(p.userId)).toBe(50 - s.config.IMAGE_CREDIT_PRICE);
    // the prompt is built from the character's description and the request
    const task = await s.db.generationTask.findUniqueOrThrow({ where: { id: a.id } });
    expect((task.input as { prompt: string }).prompt).toMatch(/Mira.*lighthouse keeper.*by the lamp/);
  });

  it("a page of messages reads its pictures' tasks in one query, however many it shows", async () => {
    const p = await person(50);
    for (const key of ["p1", "p2", "p3", "p4"]) await ask(p, { idempotency_key: key }).expect(200);
    // chat's media on the same generation domain, with its reads counted (screening and suspensions play no part in reading)
    const port = characterMedia(s.services.generation, s.services.progress);
    const reads: number[][] = [];
    const counted: CharacterMediaPort = { ...port, views: (userId, ids) => (reads.push(ids), port.views(userId, ids)) };
    const media = createChatMedia({ db: s.db, scenes: undefined as never, suspensions: undefined as never, media: counted });
    const messages = await s.db.chatMessage.findMany({ where: { conversationId: p.conversationId }, orderBy: { id: "asc" } });
    const shown = await media.withMedia(p.userId, messages);
    expect(shown.filter((m) => m.media?.state === "queued")).toHaveLength(4);
    expect(reads).toHaveLength(1);
    expect(reads[0]).toHaveLength(4);
    // another person's page shows none of them (the tasks are read as the reader's own)
    const other = await visitor(s);
    expect((await media.withMedia(other.userId, messages)).filter((m) => m.media).every((m) => m.media!.state === "removed")).toBe(true);
  });

  it("the conversation deleted while it renders: the task is cancelled and refunded once", async () => {
    const p = await person(50);
    const a = (await ask(p).expect(200)).body.data;
    await post("/api/RoleChat/deleteConversation", { conversation_id: p.conversationId }, p.token).expect(200);
    await post("/api/RoleChat/deleteConversation", { conversation_id: p.conversationId }, p.token).expect(404);
    expect(await s.db.generationTask.findUniqueOrThrow({ where: { id: a.id } })).toMatchObject({ status: "failed", error: "conversation deleted" });
    expect((await ledger(a.id)).map((l) => l.delta)).toEqual([-a.cost, a.cost]);
    expect(await points(p.userId)).toBe(50);
  });

  it("a ban while it renders: failed, refunded, nothing delivered", async () => {
    const p = await person(50);
    const moderator = await staffMember(s, ["moderator"]);
    const a = (await ask(p).expect(200)).body.data;
    await s.http.post(`/admin/api/users/${p.userId}/ban`).set("token", moderator.token).send({ reason: "Abuse" }).expect(200);
    expect((await s.db.generationTask.findUniqueOrThrow({ where: { id: a.id } })).status).toBe("failed");
    expect((await ledger(a.id)).map((l) => l.delta)).toEqual([-a.cost, a.cost]);
    expect(await points(p.userId)).toBe(50);
  });

  it("the character taken down while it renders: failed, refunded, and the message shows nothing", async () => {
    const p = await person(50);
    const moderator = await staffMember(s, ["moderator"]);
    const a = (await ask(p).expect(200)).body.data;
    const report = (await post("/api/report", { target_type: "character", target_id: p.characterId, reason: "underage" }, p.token).expect(200)).body.data
      .id as number;
    await s.http.post(`/admin/api/reports/${report}/takedown`).set("token", moderator.token).send({ reason: "Looks under 18" }).expect(200);
    expect((await s.db.generationTask.findUniqueOrThrow({ where: { id: a.id } })).status).toBe("failed");
    expect((await ledger(a.id)).map((l) => l.delta)).toEqual([-a.cost, a.cost]);
    expect(await points(p.userId)).toBe(50);
    const shown = (await conversation(p)).messages.find((m: { media: unknown }) => m.media);
    expect(shown.media).toMatchObject({ state: "removed", image_url: null, video_url: null });
  });
});

describe("the character's look", () => {
  const upload = async (token: string) =>
    (
      await s.http
        .post("/api/ImageUpload/upload")
        .set("token", token)
        .attach("file", await photo(200, 260), "r.jpg")
        .field("consent", "1")
        .expect(200)
    ).body.data.id as number;

  it("up to four reference pictures of the creator's own uploads, all sent with the picture; without an avatar the first is its source", async () => {
    const u = await visitor(s);
    await grant(s, u.userId, 50);
    const refs = [await upload(u.token), await upload(u.token)];
    const card = { name: "Noor", description: "An adult painter", age: 40 };
    await post("/api/RoleChat/creatCharacter", { ...card, reference_image_ids: [1, 2, 3, 4, 5] }, u.token).expect(400);
    const other = await visitor(s);
    await post("/api/RoleChat/creatCharacter", { ...card, reference_image_ids: [await upload(other.token)] }, u.token).expect(404);
    const c = (await post("/api/RoleChat/creatCharacter", { ...card, reference_image_ids: refs }, u.token).expect(200)).body.data;
    expect(c.reference_urls).toHaveLength(2);
    expect(c.reference_urls[0]).toMatch(/sig=/);
    const conv = (await post("/api/RoleChat/creatConversation", { character_id: c.id }, u.token).expect(200)).body.data;
    const a = (await ask({ token: u.token, conversationId: conv.id }).expect(200)).body.data;
    const keys = (await s.db.character.findUniqueOrThrow({ where: { id: c.id } })).referenceKeys;
    // the first is the source every workflow reads; the rest go to a workflow reading several (decision 385)
    expect((await s.db.generationTask.findUniqueOrThrow({ where: { id: a.id } })).input).toMatchObject({ imageKey: keys[0], referenceKeys: [keys[1]] });
    // with an avatar, the avatar is the source and every reference picture goes with it
    const avatar = await upload(u.token);
    await post("/api/RoleChat/creatCharacter", { ...card, id: c.id, avatar_image_id: avatar, reference_image_ids: refs }, u.token).expect(200);
    const b = (await ask({ token: u.token, conversationId: conv.id }).expect(200)).body.data;
    const input = (await s.db.generationTask.findUniqueOrThrow({ where: { id: b.id } })).input as { imageKey: string; referenceKeys: string[] };
    expect(input.referenceKeys).toEqual((await s.db.character.findUniqueOrThrow({ where: { id: c.id } })).referenceKeys);
    expect(input.referenceKeys).toHaveLength(2);
    expect(input.referenceKeys).not.toContain(input.imageKey);
  });

  it("a character tied to its creator's own model: the LoRA renders the creator's pictures only (decision 366)", async () => {
    const owner = await registeredUser(s, 50);
    const cover = await upload(owner.token);
    // the trained weights as training stores them: a model is named by their hash (decision 330)
    await s.services.storage.put("loras/ayla.safetensors", Buffer.from("ayla weights"), "application/octet-stream");
    const model = await s.db.characterModel.create({
      data: {
        userId: owner.userId,
        name: "Ayla",
        homeLink: `ayla${owner.userId}`,
        coverUploadId: cover,
        status: "success",
        cost: 5,
        artifactKey: "loras/ayla.safetensors",
        triggerWord: "ayl",
      },
    });
    const stranger = await visitor(s);
    await grant(s, stranger.userId, 50);
    const strangersModel = await s.db.characterModel.create({
      data: { userId: stranger.userId, name: "S", homeLink: `s${stranger.userId}`, status: "success", cost: 5, artifactKey: "loras/s.safetensors" },
    });
    const card = { name: "Ayla", description: "An adult dancer", age: 30, avatar_image_id: cover, is_public: 1 };
    await post("/api/RoleChat/creatCharacter", { ...card, model_id: strangersModel.id }, owner.token).expect(404);
    const c = (await post("/api/RoleChat/creatCharacter", { ...card, model_id: model.id }, owner.token).expect(200)).body.data;
    expect(c.model_id).toBe(model.id);
    expect((await get(`/api/RoleChat/characterDetails?id=${c.id}`, stranger.token).expect(200)).body.data.model_id).toBeNull();
    const input = async (who: { token: string }) => {
      const conv = (await post("/api/RoleChat/creatConversation", { character_id: c.id }, who.token).expect(200)).body.data;
      const a = (await ask({ token: who.token, conversationId: conv.id }).expect(200)).body.data;
      return { a, input: (await s.db.generationTask.findUniqueOrThrow({ where: { id: a.id } })).input as { lora?: { modelId: number } } };
    };
    const mine = await input(owner);
    expect(mine.input.lora?.modelId).toBe(model.id);
    // the local engine cannot load a LoRA and says so on the draft
    expect(mine.a.message.media.label).toMatch(/local draft, character model not applied/);
    expect((await input(stranger)).input.lora).toBeUndefined();
  });
});

describe("delivered in the conversation on the local engine", () => {
  beforeAll(async () => {
    worker = await startWorkerFor(s);
  });

  it("a picture: progress then the message with its labelled draft, signed; nobody else can read it", async () => {
    const p = await person(50);
    const t0 = performance.now();
    const a = (await ask(p, { prompt: "waving from the gallery" }).expect(200)).body.data;
    const controller = new AbortController();
    const res = await fetch(`${s.url}/api/RoleChat/replyStream?reply_id=${a.message.id}`, { headers: { token: p.token }, signal: controller.signal });
    const events: ChatEvent[] = await readEvents(res, controller, t0);
    const shownMs = performance.now() - t0;
    expect(events.some((e) => e.event === "progress")).toBe(true);
    const end = events.at(-1)!;
    expect(end.event).toBe("end");
    const m = end.data.reply as { id: number; role: string; media: Record<string, unknown> };
    expect(m).toMatchObject({ id: a.message.id, role: "assistant" });
    expect(m.media).toMatchObject({ kind: "image", state: "succeeded", draft: true, progress: 100 });
    expect(m.media.label).toMatch(/local draft/);
    const url = m.media.image_url as string;
    expect(url).toMatch(/sig=/);
    expect((await fetch(new URL(url, s.url))).status).toBe(200);
    // the same file without its signature is refused
    const unsigned = new URL(url, s.url);
    unsigned.searchParams.set("sig", "0".repeat(64));
    expect((await fetch(unsigned)).status).toBeGreaterThanOrEqual(400);
    // in the conversation, with its message
    const shown = (await conversation(p)).messages.find((x: { id: number }) => x.id === a.message.id);
    expect(shown.media.image_url).toBeTruthy();
    // another person reads neither the message stream nor the conversation
    const other = await visitor(s);
    await get(`/api/RoleChat/replyStream?reply_id=${a.message.id}`, other.token).expect(404);
    await get(`/api/RoleChat/conversation?conversation_id=${p.conversationId}`, other.token).expect(404);
    await get(`/api/Generation/picVideoSubmitDetails?id=${a.id}`, other.token).expect(404);
    expect(shownMs).toBeLessThan(15_000);
  }, 30_000);

  it("a failed render: the message says so in the person's words, refunded once", async () => {
    const p = await person(50);
    // the character's look points at a file that is gone: the engine cannot read it, every attempt fails
    await s.db.character.update({ where: { id: p.characterId }, data: { avatarKey: "images/gone/missing.jpg" } });
    const a = (await ask(p).expect(200)).body.data;
    expect((await waitForTask(s, a.id)).status).toBe("failed");
    const shown = (await conversation(p)).messages.find((x: { id: number }) => x.id === a.message.id);
    expect(shown.media).toMatchObject({ state: "failed", image_url: null, msg: MSG.generationFailedGeneric });
    expect((await ledger(a.id)).map((l) => l.delta)).toEqual([-a.cost, a.cost]);
    expect(await points(p.userId)).toBe(50);
  }, 30_000);

  it("operators: the chatMedia setting is checked whole (bad values 400, unchanged), and the dashboard counts pictures and their spend", async () => {
    const admin = await staffMember(s, ["admin"]);
    const put = (value: unknown) => s.http.put(`/admin/api/site-settings/${CHAT_MEDIA_SETTING}`).set("token", admin.token).send({ value });
    // unsaved, it is there to edit with its defaults
    const shown = (await s.http.get(`/admin/api/site-settings/${CHAT_MEDIA_SETTING}`).set("token", admin.token).expect(200)).body;
    expect(shown.value).toMatchObject({ enabled: true, drafts: true, price: { image: null, video: null } });
    expect((await put({ price: { image: -1 } }).expect(400)).body.msg).toBe(CHAT_MEDIA_MESSAGES.settingsInvalid);
    await put({ workflows: { image: { local: "x" } } }).expect(400);
    expect(await s.db.siteSetting.findUnique({ where: { key: CHAT_MEDIA_SETTING } })).toBeNull();
    await put({ price: { video: 9 }, workflows: { video: { comfyui: "wan-i2v" } } }).expect(200);
    expect((await s.db.siteSetting.findUniqueOrThrow({ where: { key: CHAT_MEDIA_SETTING } })).value).toMatchObject({
      enabled: true,
      price: { image: null, video: 9 },
      workflows: { image: {}, video: { comfyui: "wan-i2v" } },
    });
    await s.db.siteSetting.delete({ where: { key: CHAT_MEDIA_SETTING } });

    const d = (await s.http.get("/admin/api/dashboard?days=2").set("token", admin.token).expect(200)).body;
    expect(d.activitySeries).toEqual(expect.arrayContaining(["chatMedia", "chatMediaCredits"]));
    const total = (series: string) =>
      d.activity.filter((r: { series: string }) => r.series === series).reduce((n: number, r: { count: number }) => n + r.count, 0);
    // every picture asked for in this file, and the credits of those not refunded
    const asked = await s.db.chatMedia.count({ where: { taskId: { not: null } } });
    const kept = await s.db.generationTask.aggregate({
      where: { chatMedia: { isNot: null }, status: { not: "failed" }, paidWith: "credits" },
      _sum: { cost: true },
    });
    expect(total("chatMedia")).toBe(asked);
    expect(total("chatMediaCredits")).toBe(kept._sum.cost);
    expect(asked).toBeGreaterThan(5);
  });
});
