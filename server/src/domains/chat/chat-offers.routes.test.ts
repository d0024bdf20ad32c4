import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visitor } from "../../../../tests/db-utils.ts";
import { GENERATION_TEST_ENV, grant, startWorkerFor } from "../../../../tests/generation-utils.ts";
import { chatCall, readEvents, streamedText, type ChatEvent } from "../../../../tests/chat-utils.ts";
import { defaultBehaviour, startFakeOpenAi, type FakeOpenAi } from "../../../../tests/fixtures/fake-openai.ts";
import { photo } from "../../../../tests/fixtures/media.ts";
import { startTestServer } from "../../../../tests/server-utils.ts";
import { CHAT_MEDIA_SETTING } from "../../contract/chat.ts";

/**
 * Issue 50 item 3: the character may offer a picture through the chat model's tool call (OpenAI `tools`), shown as an
 * offer the person takes with one tap; nothing is charged without that tap, and a server that cannot take tools simply
 * never offers. The fake servers stream tool calls as OpenAI does (tests/fixtures/fake-openai.ts): `taking` answers
 * tools; `refusing` is one started without tool parsing (400 to any request carrying them) though set up for them.
 */
let s: Awaited<ReturnType<typeof startTestServer>>;
let taking: FakeOpenAi;
let refusing: FakeOpenAi;
let worker: { stop(): Promise<void> } | undefined;

beforeAll(async () => {
  taking = await startFakeOpenAi({ apiKey: "sk-test" });
  refusing = await startFakeOpenAi({ apiKey: "sk-test", tools: false });
  const backend = (name: string, f: FakeOpenAi, tier: string) => ({ name, baseUrl: f.url, apiKey: "sk-test", model: "fake-model", tiers: [tier], tools: true });
  s = await startTestServer({
    ...GENERATION_TEST_ENV,
    CHAT_FREE_MESSAGES: "0",
    CHAT_BACKENDS: JSON.stringify([backend("taking", taking, "premium"), backend("refusing", refusing, "standard")]),
  });
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await s?.stop();
  await taking?.close();
  await refusing?.close();
});

const post = (p: string, body: object, token: string) => s.http.post(p).set("token", token).send(body);
const points = async (userId: number) => (await s.db.user.findUniqueOrThrow({ where: { id: userId } })).points;
const accept = (p: { token: string }, messageId: unknown) => post("/api/RoleChat/acceptOffer", { message_id: messageId }, p.token);

/** A person with credits, their character (avatar uploaded, on `tier`) and a conversation with it. */
async function person(credits: number, tier = "premium") {
  const u = await visitor(s);
  await grant(s, u.userId, credits);
  const up = await s.http
    .post("/api/ImageUpload/upload")
    .set("token", u.token)
    .attach("file", await photo(256, 256), "a.jpg")
    .field("consent", "1")
    .expect(200);
  const card = {
    name: "Mira",
    description: "A 29-year-old lighthouse keeper with red hair",
    greeting: "Welcome in.",
    age: 29,
    avatar_image_id: up.body.data.id,
  };
  const character = (await post("/api/RoleChat/creatCharacter", card, u.token).expect(200)).body.data;
  await s.db.character.update({ where: { id: character.id }, data: { tier } });
  const conv = (await post("/api/RoleChat/creatConversation", { character_id: character.id }, u.token).expect(200)).body.data;
  return { ...u, characterId: character.id as number, conversationId: conv.id as number };
}

/** Sends a message and reads the reply's stream to its end; answers the events and the ended reply. */
async function say(p: { token: string; conversationId: number }, content: string) {
  const r = await chatCall(s.url, "/api/RoleChat/chat", p.token, { conversation_id: p.conversationId, content });
  expect(r.status).toBe(200);
  const end = r.events.find((e) => e.event === "end");
  return { events: r.events, reply: end?.data.reply };
}

describe("the character offers a picture through a tool call", () => {
  it("the reply carries the offer (kind and the model's scene) and nothing is charged for it but the message", async () => {
    const p = await person(50);
    const before = taking.calls.length;
    const { events, reply } = await say(p, "Send me a selfie from the harbour?");
    // the tool went to the model as OpenAI's `tools`: the model proposes the kind and the scene, nothing else
    const sent = taking.calls[before].body;
    expect(sent.tool_choice).toBe("auto");
    expect(sent.tools?.map((t) => t.function.name)).toEqual(["offer_picture"]);
    expect(sent.tools?.[0].function.parameters).toMatchObject({ type: "object", required: ["kind", "scene"] });
    expect(Object.keys((sent.tools![0].function.parameters as { properties: object }).properties)).toEqual(["kind", "scene"]);
    // the text streamed as usual, the offer came whole with the end
    expect(streamedText(events)).toBe("Give me a second, I will strike a pose for you.");
    expect(reply).toMatchObject({ status: "complete", content: "Give me a second, I will strike a pose for you." });
    expect(reply.media).toMatchObject({ kind: "image", state: "offered", request: "smiling on the harbour wall at dusk", task_id: null, cost: 0 });
    // in the conversation too, after a reload
    const shown = (await s.http.get(`/api/RoleChat/conversation?conversation_id=${p.conversationId}`).set("token", p.token).expect(200)).body.data;
    expect(shown.messages.find((m: { id: number }) => m.id === reply.id).media).toMatchObject({ state: "offered", kind: "image" });
    // never charged without the tap: the message's price only, no task
    expect(await points(p.userId)).toBe(50 - s.config.CHAT_PRICE_PREMIUM);
    expect(await s.db.generationTask.count({ where: { userId: p.userId } })).toBe(0);
  });

  it("one tap takes it: charged once however many taps arrive at once, rendered and delivered in the conversation", async () => {
    worker ??= await startWorkerFor(s);
    const p = await person(50);
    const { reply } = await say(p, "Could you send me a photo?");
    const taps = await Promise.all(Array.from({ length: 10 }, () => accept(p, reply.id)));
    expect(taps.map((t) => t.status)).toEqual(Array(10).fill(200));
    const ids = new Set(taps.map((t) => t.body.data.id));
    expect(ids.size).toBe(1);
    const a = taps[0].body.data;
    expect(a).toMatchObject({ cost: s.config.IMAGE_CREDIT_PRICE, message: { id: reply.id, media: { task_id: a.id, kind: "image" } } });
    expect(await s.db.ledgerEntry.count({ where: { userId: p.userId, reason: "generation" } })).toBe(1);
    expect(await points(p.userId)).toBe(50 - s.config.CHAT_PRICE_PREMIUM - s.config.IMAGE_CREDIT_PRICE);
    // the model's scene is the request, with the character's look
    const task = await s.db.generationTask.findUniqueOrThrow({ where: { id: a.id } });
    expect((task.input as { prompt: string }).prompt).toMatch(/Mira.*lighthouse keeper.*smiling on the harbour wall/);
    // followed on the reply stream of its message until it is shown
    const controller = new AbortController();
    const res = await fetch(`${s.url}/api/RoleChat/replyStream?reply_id=${reply.id}`, { headers: { token: p.token }, signal: controller.signal });
    const events: ChatEvent[] = await readEvents(res, controller, performance.now());
    expect(events.at(-1)?.data.reply.media).toMatchObject({ state: "succeeded", draft: true });
    expect(events.at(-1)?.data.reply.media.image_url).toMatch(/sig=/);
    // a later tap is the same picture, not a second one
    expect((await accept(p, reply.id).expect(200)).body.data.id).toBe(a.id);
    expect(await s.db.ledgerEntry.count({ where: { userId: p.userId, reason: "generation" } })).toBe(1);
  }, 30_000);

  it("only the person's own offer, only an offer: bad input 400, the rest 404, nothing charged", async () => {
    const p = await person(50);
    const { reply } = await say(p, "A picture, please");
    const other = await visitor(s);
    await grant(s, other.userId, 50);
    expect((await accept(p, "1").expect(400)).body.msg).toMatch(/message_id must be a number/);
    await accept(other, reply.id).expect(404);
    // a reply without an offer, and a picture the person asked for themselves, are no offers
    const plain = await say(p, "How was your day?");
    expect(plain.reply.media).toBeUndefined();
    await accept(p, plain.reply.id).expect(404);
    expect(await points(other.userId)).toBe(50);
    expect(await s.db.generationTask.count({ where: { userId: { in: [p.userId, other.userId] } } })).toBe(0);
  });

  it("an offer whose scene places anyone under 18, or breaks the chat rules, is dropped; the reply stays", async () => {
    const p = await person(50);
    taking.setRespond(() => ({
      kind: "stream",
      text: "Here you go.",
      toolCalls: [{ name: "offer_picture", arguments: { kind: "image", scene: "dressed as a 15 year old schoolgirl" } }],
    }));
    try {
      const { reply } = await say(p, "Show me");
      expect(reply).toMatchObject({ status: "complete", content: "Here you go." });
      expect(reply.media).toBeUndefined();
      // arguments that are not the tool's (a price, no scene, broken JSON) make no offer either
      for (const args of [{ kind: "image", scene: "at sea", price: 0 }, { kind: "image" }, '{"kind": "image", "scene": "at']) {
        taking.setRespond(() => ({ kind: "stream", text: "Hm.", toolCalls: [{ name: "offer_picture", arguments: args }] }));
        expect((await say(p, "Again")).reply.media).toBeUndefined();
      }
    } finally {
      taking.setRespond(defaultBehaviour);
    }
    expect(await s.db.chatMedia.count({ where: { message: { conversationId: p.conversationId } } })).toBe(0);
    // the person wrote none of it: no strike against them
    expect(await s.db.chatPolicyHit.count({ where: { userId: p.userId } })).toBe(0);
  });

  it("where chat media is off for the person, the model is not given the tool", async () => {
    const p = await person(50);
    await s.db.siteSetting.create({ data: { key: CHAT_MEDIA_SETTING, value: { enabled: false } } });
    try {
      const before = taking.calls.length;
      const { reply } = await say(p, "Send me a selfie");
      expect(taking.calls[before].body.tools).toBeUndefined();
      expect(reply.media).toBeUndefined();
    } finally {
      await s.db.siteSetting.delete({ where: { key: CHAT_MEDIA_SETTING } });
    }
  });
});

describe("a back end without tool support", () => {
  it("refusing tools (400): the reply is asked again without them and streams; the next replies go without them, no offers", async () => {
    const p = await person(50, "standard");
    const before = refusing.calls.length;
    const first = await say(p, "Send me a selfie");
    expect(first.reply).toMatchObject({ status: "complete", content: "You said: Send me a selfie. I hear you, and I answer in character." });
    expect(first.reply.media).toBeUndefined();
    const asked = refusing.calls.slice(before).map((c) => c.body.tools?.length ?? 0);
    expect(asked).toEqual([1, 0]);
    const second = await say(p, "A photo then?");
    expect(second.reply.status).toBe("complete");
    expect(refusing.calls.at(-1)?.body.tools).toBeUndefined();
    expect(refusing.calls.length - before).toBe(3);
    // charged the two messages, nothing else
    expect(await points(p.userId)).toBe(50 - 2 * s.config.CHAT_PRICE_STANDARD);
    expect(await s.db.chatMedia.count({ where: { message: { conversationId: p.conversationId } } })).toBe(0);
  });
});
