import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visitor } from "../../../../tests/db-utils.ts";
import { grant } from "../../../../tests/generation-utils.ts";
import { startTestServer } from "../../../../tests/server-utils.ts";
import { registeredUser } from "../../../../tests/training-utils.ts";
import { chatBackendsEnv, chatCall, streamedText } from "../../../../tests/chat-utils.ts";
import { defaultBehaviour, startFakeOpenAi, type FakeOpenAi } from "../../../../tests/fixtures/fake-openai.ts";
import { MSG } from "../../http/messages.ts";
import { staffMember } from "../../../../tests/staff-utils.ts";

let s: Awaited<ReturnType<typeof startTestServer>>;
let primary: FakeOpenAi;
let spare: FakeOpenAi;
let user: { token: string; userId: number };

const CARD = {
  name: "Mira",
  description: "A 29-year-old lighthouse keeper",
  personality: "Calm and wry",
  scenario: "A stormy night",
  greeting: "Welcome in, stranger.",
  example_lines: ["Mind the stairs."],
  tags: ["Mystery"],
  age: 29,
};

beforeAll(async () => {
  primary = await startFakeOpenAi({ apiKey: "sk-test" });
  spare = await startFakeOpenAi({ apiKey: "sk-test" });
  s = await startTestServer({
    CHAT_BACKENDS: chatBackendsEnv([primary, spare]),
    CHAT_FREE_MESSAGES: "0",
    CHAT_FIRST_TOKEN_TIMEOUT_SECONDS: "0.5",
    CHAT_POLICY_STRIKES: "3",
  });
  user = await visitor(s);
  await grant(s, user.userId, 1000);
}, 60_000);
afterAll(async () => {
  await s?.stop();
  await primary?.close();
  await spare?.close();
});

const post = (p: string, body: object, token = user.token) => s.http.post(p).set("token", token).send(body);
const get = (p: string, token = user.token) => s.http.get(p).set("token", token);
const reset = () => {
  primary.setRespond(defaultBehaviour);
  spare.setRespond(defaultBehaviour);
};

async function character(token = user.token, card: object = CARD) {
  return (await post("/api/RoleChat/creatCharacter", card, token).expect(200)).body.data;
}
async function conversation(token = user.token) {
  const c = await character(token);
  return (await post("/api/RoleChat/creatConversation", { character_id: c.id }, token).expect(200)).body.data;
}
const balance = async (userId = user.userId) => (await s.db.user.findUniqueOrThrow({ where: { id: userId } })).points;
const ledger = (replyId: number) => s.db.ledgerEntry.findMany({ where: { reference: `chat_message:${replyId}` }, orderBy: { id: "asc" } });

describe("streamed replies", () => {
  it("streams the reply token by token, stores it once and charges once", async () => {
    reset();
    primary.setRespond((b) => ({ ...(defaultBehaviour(b) as { kind: "stream"; text: string }), tokenDelayMs: 20 }));
    const conv = await conversation();
    expect(conv.last_line.content).toBe(CARD.greeting);
    const before = await balance();
    const { status, events } = await chatCall(s.url, "/api/RoleChat/chat", user.token, { conversation_id: conv.id, content: "Is the light still on?" });
    expect(status).toBe(200);
    expect(events[0].event).toBe("start");
    const tokens = events.filter((e) => e.event === "token");
    expect(tokens.length).toBeGreaterThan(5);
    // token by token: the pieces arrive spread over time, not in one burst at the end
    expect(tokens.at(-1)!.at - tokens[0].at).toBeGreaterThan(60);
    const end = events.at(-1)!;
    expect(end.event).toBe("end");
    expect(end.data.reply.status).toBe("complete");
    expect(end.data.reply.content).toBe(streamedText(events));
    expect(streamedText(events)).toContain("Is the light still on?");

    const replies = await s.db.chatMessage.findMany({ where: { conversationId: conv.id, role: "assistant", replyToId: { not: null } } });
    expect(replies).toHaveLength(1);
    expect(replies[0].content).toBe(streamedText(events));
    expect(await balance()).toBe(before - s.config.CHAT_PRICE_STANDARD);
    expect((await ledger(replies[0].id)).map((l) => l.delta)).toEqual([-s.config.CHAT_PRICE_STANDARD]);

    // the prompt: the card as system message, the greeting, then the person's message
    const call = primary.calls.at(-1)!;
    expect(call.authorization).toBe("Bearer sk-test");
    expect(call.body.stream).toBe(true);
    expect(call.body.stream_options?.include_usage).toBe(true);
    expect(call.body.messages[0].role).toBe("system");
    expect(call.body.messages[0].content).toContain("lighthouse keeper");
    expect(call.body.messages.slice(1)).toEqual([
      { role: "assistant", content: CARD.greeting },
      { role: "user", content: "Is the light still on?" },
    ]);

    const listed = (await get(`/api/RoleChat/conversation?conversation_id=${conv.id}`).expect(200)).body.data.messages;
    expect(listed.map((m: { role: string }) => m.role)).toEqual(["assistant", "user", "assistant"]);
    // back-end calls are recorded in the background, those of one event-loop turn together
    await expect
      .poll(async () => (await s.db.chatBackendCall.findFirst({ where: { backend: "fake1", ok: true }, orderBy: { id: "desc" } }))?.completionTokens)
      .toBe(tokens.length);
  });

  it("keeps storing the reply when the browser goes away mid-stream", async () => {
    reset();
    primary.setRespond(() => ({ kind: "stream", text: "one two three four five six seven eight nine ten", tokenDelayMs: 40 }));
    const conv = await conversation();
    const { events } = await chatCall(
      s.url,
      "/api/RoleChat/chat",
      user.token,
      { conversation_id: conv.id, content: "hi" },
      (ev) => ev.filter((e) => e.event === "token").length >= 2,
    );
    const replyId = events[0].data.reply.id;
    await expect.poll(async () => (await s.db.chatMessage.findUniqueOrThrow({ where: { id: replyId } })).status, { timeout: 5000 }).toBe("complete");
    const row = await s.db.chatMessage.findUniqueOrThrow({ where: { id: replyId } });
    expect(row.content).toBe("one two three four five six seven eight nine ten");
    expect(await ledger(replyId)).toHaveLength(1);
    expect(await s.db.chatMessage.count({ where: { replyToId: events[0].data.user_message.id } })).toBe(1);
  });

  it("fails over on a 429 and on a slow first token", async () => {
    reset();
    primary.setRespond(() => ({ kind: "error", status: 429 }));
    const conv = await conversation();
    const a = await chatCall(s.url, "/api/RoleChat/chat", user.token, { conversation_id: conv.id, content: "first" });
    expect(a.events.at(-1)!.data.reply).toMatchObject({ status: "complete" });
    expect(a.events.at(-1)!.data.reply.content).toContain("first");
    expect((await s.db.chatMessage.findUniqueOrThrow({ where: { id: a.events[0].data.reply.id } })).backend).toBe("fake2");

    primary.setRespond((b) => ({ ...(defaultBehaviour(b) as { kind: "stream"; text: string }), firstTokenDelayMs: 3000 }));
    const b = await chatCall(s.url, "/api/RoleChat/chat", user.token, { conversation_id: conv.id, content: "second" });
    expect(b.events.at(-1)!.data.reply.status).toBe("complete");
    expect((await s.db.chatMessage.findUniqueOrThrow({ where: { id: b.events[0].data.reply.id } })).backend).toBe("fake2");
    const errors = () => s.db.chatBackendCall.findMany({ where: { backend: "fake1", ok: false } });
    await expect.poll(async () => (await errors()).some((e) => e.error === "no first token in time")).toBe(true);
    expect((await errors()).some((e) => e.httpStatus === 429)).toBe(true);
  });

  it("asks again on a fresh connection when the back end resets a kept-alive one as it is reused", async () => {
    reset();
    const conv = await conversation();
    await chatCall(s.url, "/api/RoleChat/chat", user.token, { conversation_id: conv.id, content: "warm" });
    const before = primary.calls.length;
    primary.setRespond((b, n) => (n === before + 1 ? { kind: "reset" } : defaultBehaviour(b)));
    const { events } = await chatCall(s.url, "/api/RoleChat/chat", user.token, { conversation_id: conv.id, content: "again" });
    expect(events.at(-1)!.data.reply).toMatchObject({ status: "complete" });
    expect((await s.db.chatMessage.findUniqueOrThrow({ where: { id: events[0].data.reply.id } })).backend).toBe("fake1");
    expect(primary.calls.length).toBe(before + 2);
    reset();
  });

  it("refunds exactly once when every back end fails before sending anything (500)", async () => {
    primary.setRespond(() => ({ kind: "error", status: 500 }));
    spare.setRespond(() => ({ kind: "error", status: 500 }));
    const conv = await conversation();
    const before = await balance();
    const { events } = await chatCall(s.url, "/api/RoleChat/chat", user.token, { conversation_id: conv.id, content: "hello?" });
    const reply = events.at(-1)!.data.reply;
    expect(reply.status).toBe("failed");
    expect(await balance()).toBe(before);
    expect((await ledger(reply.id)).map((l) => l.delta)).toEqual([-1, 1]);
    expect(await s.services.credits.findLedgerMismatches([user.userId])).toEqual([]);
    reset();
  });

  it("keeps a reply cut mid-stream and charges it once", async () => {
    primary.setRespond(() => ({ kind: "stream", text: "alpha beta gamma delta epsilon zeta", cutAfter: 3, tokenDelayMs: 10 }));
    const conv = await conversation();
    const before = await balance();
    const { events } = await chatCall(s.url, "/api/RoleChat/chat", user.token, { conversation_id: conv.id, content: "tell me" });
    const reply = events.at(-1)!.data.reply;
    expect(reply.status).toBe("cut");
    expect(reply.content).toBe("alpha beta gamma");
    expect(streamedText(events)).toBe("alpha beta gamma");
    expect(await balance()).toBe(before - 1);
    expect((await ledger(reply.id)).map((l) => l.delta)).toEqual([-1]);
    reset();
  });

  it("20 concurrent messages in one conversation keep their order and are charged 20 times", async () => {
    reset();
    primary.setRespond((b) => ({ ...(defaultBehaviour(b) as { kind: "stream"; text: string }), tokenDelayMs: 2 }));
    const conv = await conversation();
    const before = await balance();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => chatCall(s.url, "/api/RoleChat/chat", user.token, { conversation_id: conv.id, content: `message ${i}` })),
    );
    for (const r of results) expect(r.events.at(-1)!.data.reply.status).toBe("complete");
    expect(await balance()).toBe(before - 20);
    const messages = (await get(`/api/RoleChat/conversation?conversation_id=${conv.id}`).expect(200)).body.data.messages.slice(1);
    expect(messages).toHaveLength(40);
    for (let i = 0; i < 40; i += 2) {
      expect(messages[i].role).toBe("user");
      expect(messages[i + 1].reply_to_id).toBe(messages[i].id);
      expect(messages[i + 1].content).toContain(messages[i].content);
    }
    // each reply saw every earlier turn, reply included: written one after the other
    const last = primary.calls.filter((c) => c.body.messages.at(-1)!.content.startsWith("message ")).at(-1)!;
    expect(last.body.messages.filter((m) => m.role === "assistant")).toHaveLength(20);
    const charges = await s.db.ledgerEntry.count({
      where: {
        userId: user.userId,
        reason: "chat_message",
        reference: { in: messages.filter((m: { role: string }) => m.role === "assistant").map((m: { id: number }) => `chat_message:${m.id}`) },
      },
    });
    expect(charges).toBe(20);
  }, 60_000);

  it("sends and regenerates racing in one conversation take their locks in one order: none fails, the ledger adds up", async () => {
    reset();
    primary.setRespond((b) => ({ ...(defaultBehaviour(b) as { kind: "stream"; text: string }), tokenDelayMs: 1 }));
    const conv = await conversation();
    await chatCall(s.url, "/api/RoleChat/chat", user.token, { conversation_id: conv.id, content: "start" });
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        i % 2
          ? chatCall(s.url, "/api/RoleChat/regenerate", user.token, { conversation_id: conv.id })
          : chatCall(s.url, "/api/RoleChat/chat", user.token, { conversation_id: conv.id, content: `race ${i}` }),
      ),
    );
    // a regenerate meeting a reply still being written is 409 by design; a deadlock would be a 500
    for (const r of results) expect([200, 409]).toContain(r.status);
    expect(results.filter((r, i) => i % 2 === 0 && r.status === 200)).toHaveLength(8);
    expect(await s.services.credits.findLedgerMismatches([user.userId])).toEqual([]);
    reset();
  }, 60_000);

  it("a retried send with the same idempotency key is one message and one charge", async () => {
    reset();
    const conv = await conversation();
    const before = await balance();
    const body = { conversation_id: conv.id, content: "once", idempotency_key: "k-1" };
    const [a, b] = await Promise.all([chatCall(s.url, "/api/RoleChat/chat", user.token, body), chatCall(s.url, "/api/RoleChat/chat", user.token, body)]);
    expect(a.events.at(-1)!.data.reply.id).toBe(b.events.at(-1)!.data.reply.id);
    expect(await balance()).toBe(before - 1);
    expect(await s.db.chatMessage.count({ where: { conversationId: conv.id, role: "user" } })).toBe(1);
    // asked again once the first has ended and the balance is spent: the stored reply, neither a 402 nor a second one
    const spent = await balance();
    await s.services.credits.charge({
      userId: user.userId,
      amount: spent,
      reason: "chat_message",
      reference: "test:spend",
      idempotencyKey: `test-spend:${conv.id}`,
    });
    const c = await chatCall(s.url, "/api/RoleChat/chat", user.token, body);
    expect(c.status).toBe(200);
    expect(c.events.at(-1)!.data.reply.id).toBe(a.events.at(-1)!.data.reply.id);
    expect(await s.db.chatMessage.count({ where: { conversationId: conv.id, role: "user" } })).toBe(1);
    // the same key in another conversation is a mistake, not a retry
    const other = await conversation();
    const misused = await post("/api/RoleChat/chat", { ...body, conversation_id: other.id });
    expect(misused.status).toBe(409);
    expect(misused.body.msg).toBe(MSG.messageSentElsewhere);
    expect(await s.db.chatMessage.count({ where: { conversationId: other.id, role: "user" } })).toBe(0);
    await grant(s, user.userId, spent);
  });

  it("stop keeps what was written; regenerate and edit give the last turn a new reply", async () => {
    primary.setRespond(() => ({ kind: "stream", text: Array.from({ length: 60 }, (_, i) => `w${i}`).join(" "), tokenDelayMs: 30 }));
    const conv = await conversation();
    let replyId = 0;
    const streaming = chatCall(s.url, "/api/RoleChat/chat", user.token, { conversation_id: conv.id, content: "go on" }, (ev) => {
      if (!replyId && ev.filter((e) => e.event === "token").length >= 3) {
        replyId = ev[0].data.reply.id;
        void post("/api/RoleChat/stop", { reply_id: replyId }).then((r) => expect(r.status).toBe(200));
      }
      return false;
    });
    const { events } = await streaming;
    const stopped = events.at(-1)!.data.reply;
    expect(stopped.status).toBe("stopped");
    expect(stopped.content.split(" ").length).toBeLessThan(60);
    expect(stopped.content.startsWith("w0 w1 w2")).toBe(true);

    reset();
    const again = await chatCall(s.url, "/api/RoleChat/regenerate", user.token, { conversation_id: conv.id });
    expect(again.events.at(-1)!.data.reply.status).toBe("complete");
    expect(again.events.at(-1)!.data.reply.content).toContain("go on");
    const edited = await chatCall(s.url, "/api/RoleChat/editMessage", user.token, { conversation_id: conv.id, content: "go back" });
    expect(edited.events.at(-1)!.data.reply.content).toContain("go back");
    const msgs = (await get(`/api/RoleChat/conversation?conversation_id=${conv.id}`).expect(200)).body.data.messages;
    expect(msgs.map((m: { content: string }) => m.content.slice(0, 14))).toEqual([
      CARD.greeting.slice(0, 14),
      "go back",
      edited.events.at(-1)!.data.reply.content.slice(0, 14),
    ]);
  });

  it("follows a reply from another API instance through the database", async () => {
    primary.setRespond(() => ({ kind: "stream", text: "slow words arrive one by one until the end", tokenDelayMs: 120 }));
    const other = await startTestServer({ CHAT_BACKENDS: chatBackendsEnv([primary]) }, s.testDb);
    try {
      const conv = await conversation();
      let replyId = 0;
      const first = chatCall(s.url, "/api/RoleChat/chat", user.token, { conversation_id: conv.id, content: "x" }, (ev) => {
        replyId ||= ev[0]?.data.reply.id;
        return false;
      });
      await expect.poll(() => replyId).toBeGreaterThan(0);
      const controller = new AbortController();
      const res = await fetch(`${other.url}/api/RoleChat/replyStream?reply_id=${replyId}`, { headers: { token: user.token }, signal: controller.signal });
      const { readEvents } = await import("../../../../tests/chat-utils.ts");
      const followed = await readEvents(res, controller, performance.now());
      const direct = await first;
      expect(followed.at(-1)!.event).toBe("end");
      expect(streamedText(followed)).toBe("slow words arrive one by one until the end");
      // pieces arrived while it was written (the writer publishes once followed), not only with the end
      const beforeEnd = followed.filter((e) => e.event === "token");
      expect(beforeEnd.length).toBeGreaterThan(1);
      expect(streamedText(direct.events)).toBe(streamedText(followed));
    } finally {
      await other.stop();
      reset();
    }
  });
});

describe("who may do what", () => {
  it("another user's conversation and reply are 404", async () => {
    reset();
    const conv = await conversation();
    const { events } = await chatCall(s.url, "/api/RoleChat/chat", user.token, { conversation_id: conv.id, content: "mine" });
    const stranger = await visitor(s);
    await grant(s, stranger.userId, 10);
    const tried = await chatCall(s.url, "/api/RoleChat/chat", stranger.token, { conversation_id: conv.id, content: "theirs" });
    expect(tried.status).toBe(404);
    expect(tried.json.msg).toBe(MSG.notFound);
    await get(`/api/RoleChat/conversation?conversation_id=${conv.id}`, stranger.token).expect(404);
    await post("/api/RoleChat/stop", { reply_id: events[0].data.reply.id }, stranger.token).expect(404);
    await get(`/api/RoleChat/replyStream?reply_id=${events[0].data.reply.id}`, stranger.token).expect(404);
    await post("/api/RoleChat/deleteConversation", { conversation_id: conv.id }, stranger.token).expect(404);
    await post("/api/RoleChat/regenerate", { conversation_id: conv.id }, stranger.token).expect(404);
    expect(await balance(stranger.userId)).toBe(10);
    // a private character is not in the catalogue and cannot be talked to by others
    const priv = await character(user.token, { ...CARD, name: "Private One", is_public: 0 });
    await post("/api/RoleChat/creatConversation", { character_id: priv.id }, stranger.token).expect(404);
    await post("/api/RoleChat/creatCharacter", { ...CARD, id: priv.id, name: "Stolen" }, stranger.token).expect(404);
  });

  it("concurrent messages against a balance for some of them: those are charged once each, the rest refused and not stored", async () => {
    const three = await visitor(s);
    await grant(s, three.userId, 3);
    const conv = await conversation(three.token);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => chatCall(s.url, "/api/RoleChat/chat", three.token, { conversation_id: conv.id, content: `try ${i}` })),
    );
    expect(results.filter((r) => r.status === 402)).toHaveLength(5);
    expect(results.filter((r) => r.status === 200).map((r) => r.events.at(-1)!.data.reply.status)).toEqual(["complete", "complete", "complete"]);
    expect(await balance(three.userId)).toBe(0);
    expect(await s.db.chatMessage.count({ where: { conversationId: conv.id, role: "user" } })).toBe(3);
    expect(await s.db.ledgerEntry.count({ where: { userId: three.userId, reason: "chat_message" } })).toBe(3);
  });

  it("says 'Please get points first' and stores nothing when the balance is short", async () => {
    const poor = await visitor(s);
    const conv = await conversation(poor.token);
    const r = await chatCall(s.url, "/api/RoleChat/chat", poor.token, { conversation_id: conv.id, content: "hello" });
    expect(r.status).toBe(402);
    expect(r.json.msg).toBe(MSG.notEnoughCredits);
    expect(await s.db.chatMessage.count({ where: { conversationId: conv.id, role: "user" } })).toBe(0);

    // a regenerate the balance no longer covers is refused the same way and keeps the reply it would have replaced
    await grant(s, poor.userId, 1);
    const paid = (await chatCall(s.url, "/api/RoleChat/chat", poor.token, { conversation_id: conv.id, content: "hello" })).events.at(-1)!.data.reply;
    expect(paid.status).toBe("complete");
    expect(await balance(poor.userId)).toBe(0);
    const again = await chatCall(s.url, "/api/RoleChat/regenerate", poor.token, { conversation_id: conv.id });
    expect(again.status).toBe(402);
    expect(again.json.msg).toBe(MSG.notEnoughCredits);
    expect((await s.db.chatMessage.findMany({ where: { conversationId: conv.id, role: "assistant", replyToId: { not: null } } })).map((m) => m.id)).toEqual([
      paid.id,
    ]);
    expect(await balance(poor.userId)).toBe(0);
  });
});

describe("characters", () => {
  it("refuses characters described as minors, by age or by words, and records the attempt", async () => {
    const someone = await visitor(s);
    const byAge = await post("/api/RoleChat/creatCharacter", { ...CARD, age: 16 }, someone.token).expect(400);
    expect(byAge.body.msg).toBe(MSG.characterMinor);
    const byWords = await post("/api/RoleChat/creatCharacter", { ...CARD, age: undefined, description: "A shy 15-year-old schoolgirl" }, someone.token).expect(
      400,
    );
    expect(byWords.body.msg).toBe(MSG.characterMinor);
    expect(await s.db.character.count({ where: { userId: someone.userId } })).toBe(0);
    expect(await s.db.chatPolicyHit.count({ where: { userId: someone.userId, source: "character" } })).toBe(1);
    await expect(s.db.character.create({ data: { name: "x", age: 17 } })).rejects.toThrow();
  });

  it("drafts a character from a one-line idea, and lists the catalogue by page, tag, search and popularity", async () => {
    reset();
    const draft = (await post("/api/RoleChat/generateCharacterInfo", { idea: "a barista who reads tarot" }).expect(200)).body.data;
    expect(draft.name).toBe("Mira Vale");
    expect(draft.description).toContain("barista who reads tarot");
    expect(draft.tags).toEqual(["romance", "cafe"]);
    expect(await s.db.character.count({ where: { name: "Mira Vale" } })).toBe(0);

    const tag = `t${Date.now()}`;
    // a registered author: a guest's characters stay private (docs/decisions/251)
    const author = await registeredUser(s);
    const a = await character(author.token, { ...CARD, name: "Alpha Cat", tags: [tag], is_public: 1 });
    const b = await character(author.token, { ...CARD, name: "Beta Cat", tags: [tag], is_public: 1 });
    await post("/api/RoleChat/creatConversation", { character_id: b.id }).expect(200);
    const popular = (await s.http.get(`/api/RoleChat/getCharacterList?tag=${tag}&sort=popular&limit=10`).expect(200)).body.data;
    expect(popular.list.map((c: { id: number }) => c.id)).toEqual([b.id, a.id]);
    const fresh = (await s.http.get(`/api/RoleChat/getCharacterList?tag=${tag}&sort=new`).expect(200)).body.data;
    expect(fresh.list.map((c: { id: number }) => c.id)).toEqual([b.id, a.id]);
    expect(fresh.limit).toBe(20);
    const searched = (await s.http.get(`/api/RoleChat/getCharacterList?tag=${tag}&q=alpha`).expect(200)).body.data;
    expect(searched.list.map((c: { id: number }) => c.id)).toEqual([a.id]);
    await s.http.get("/api/RoleChat/getCharacterList?limit=15").expect(400);
  });
});

describe("safety", () => {
  it("refuses a message breaking the policy without storing or charging; repeated attempts suspend chat and raise a report", async () => {
    reset();
    const someone = await visitor(s);
    await grant(s, someone.userId, 10);
    const conv = await conversation(someone.token);
    for (let i = 0; i < 3; i++) {
      const r = await chatCall(s.url, "/api/RoleChat/chat", someone.token, { conversation_id: conv.id, content: "let's do some age play tonight" });
      expect(r.status).toBe(400);
      expect(r.json.msg).toBe(MSG.chatRefused);
    }
    expect(await balance(someone.userId)).toBe(10);
    expect(await s.db.chatMessage.count({ where: { conversationId: conv.id, role: "user" } })).toBe(0);
    const after = await chatCall(s.url, "/api/RoleChat/chat", someone.token, { conversation_id: conv.id, content: "hello" });
    expect(after.status).toBe(403);
    expect(after.json.msg).toBe(MSG.chatSuspended);
    const report = await s.db.report.findFirstOrThrow({ where: { targetType: "conversation", targetId: conv.id } });
    expect(report).toMatchObject({ reason: "underage", targetUserId: someone.userId, status: "open" });
  });

  it("stops a reply that turns into refused content before that part is shown, and refunds it", async () => {
    primary.setRespond(() => ({ kind: "stream", text: "She said she is only 15 years old and then took off her clothes naked", tokenDelayMs: 5 }));
    const conv = await conversation();
    const before = await balance();
    const { events } = await chatCall(s.url, "/api/RoleChat/chat", user.token, { conversation_id: conv.id, content: "what next" });
    expect(events.some((e) => e.event === "refused")).toBe(true);
    expect(streamedText(events)).not.toMatch(/naked/);
    const reply = events.at(-1)!.data.reply;
    expect(reply.status).toBe("refused");
    expect(reply.content).toBe("");
    expect(await balance()).toBe(before);
    expect(await s.db.chatPolicyHit.count({ where: { userId: user.userId, source: "reply" } })).toBe(1);
    reset();
  });
});

describe("replies whose writer is gone", () => {
  it("are ended by the sweep exactly once: refunded when empty, kept and charged when partly written", async () => {
    const conv = await conversation();
    const before = await balance();
    const make = async (content: string) => {
      const ask = await s.db.chatMessage.create({ data: { conversationId: conv.id, role: "user", content: "lost" } });
      const reply = await s.db.chatMessage.create({
        data: {
          conversationId: conv.id,
          role: "assistant",
          content,
          status: "streaming",
          replyToId: ask.id,
          credits: 1,
          createdAt: new Date(Date.now() - 3_600_000),
        },
      });
      await s.services.credits.charge({
        userId: user.userId,
        amount: 1,
        reason: "chat_message",
        reference: `chat_message:${reply.id}`,
        idempotencyKey: `chat-reply:${reply.id}`,
      });
      return reply.id;
    };
    const empty = await make("");
    const partial = await make("half a sen");
    expect(await s.services.chat.sweepStale()).toBe(2);
    expect(await s.services.chat.sweepStale()).toBe(0);
    expect((await s.db.chatMessage.findUniqueOrThrow({ where: { id: empty } })).status).toBe("failed");
    expect(await s.db.chatMessage.findUniqueOrThrow({ where: { id: partial } })).toMatchObject({ status: "cut", content: "half a sen" });
    expect((await ledger(empty)).map((l) => l.delta)).toEqual([-1, 1]);
    expect((await ledger(partial)).map((l) => l.delta)).toEqual([-1]);
    expect(await balance()).toBe(before - 1);
  });
});

describe("console", () => {
  it("moderators read the conversation lines behind a report and the policy hits; admins see each back end's status", async () => {
    primary.setRespond((b, n) => (n % 2 ? { kind: "error", status: 429 } : defaultBehaviour(b)));
    const conv = await conversation();
    await chatCall(s.url, "/api/RoleChat/chat", user.token, { conversation_id: conv.id, content: "a line to report" });
    await chatCall(s.url, "/api/RoleChat/chat", user.token, { conversation_id: conv.id, content: "again" });
    reset();
    const offender = await visitor(s);
    const theirs = await conversation(offender.token);
    expect((await chatCall(s.url, "/api/RoleChat/chat", offender.token, { conversation_id: theirs.id, content: "ageplay please" })).status).toBe(400);
    // a conversation is private: strangers (signed in or not) cannot report it, its owner can
    await post("/api/report", { target_type: "conversation", target_id: conv.id, reason: "underage" }, (await visitor(s)).token).expect(404);
    await s.http.post("/api/report").send({ target_type: "conversation", target_id: conv.id, reason: "underage" }).expect(404);
    const report = (await post("/api/report", { target_type: "conversation", target_id: conv.id, reason: "other", details: "rude" }).expect(200)).body.data;
    const mod = await staffMember(s, ["moderator"]);
    const reportRecord = (await s.http.get(`/admin/api/reports/${report.id}`).set("token", mod.token).expect(200)).body;
    expect(reportRecord).toMatchObject({ targetType: "conversation", targetId: conv.id, targetUserId: user.userId });
    const lines = (await s.http.get(`/admin/api/conversations/${conv.id}`).set("token", mod.token).expect(200)).body.lines;
    expect(lines.map((l: { content: string }) => l.content).slice(0, 3)).toEqual([
      CARD.greeting,
      "a line to report",
      expect.stringContaining("a line to report"),
    ]);
    const hits = (
      await s.http
        .get(`/admin/api/chat-policy-hits?filter=${encodeURIComponent(JSON.stringify({ userId: offender.userId }))}`)
        .set("token", mod.token)
        .expect(200)
    ).body;
    expect(hits).toMatchObject([{ userId: offender.userId, source: "user_message", rule: "age_play", conversationId: theirs.id, excerpt: "ageplay please" }]);
    await s.http.get("/admin/api/chat-backends").set("token", mod.token).expect(403);
    const support = await staffMember(s, ["support"]);
    await s.http.get(`/admin/api/conversations/${conv.id}`).set("token", support.token).expect(403);

    const admin = await staffMember(s, ["admin"]);
    const backends = (await s.http.get("/admin/api/chat-backends").set("token", admin.token).expect(200)).body;
    expect(backends.map((b: { name: string }) => b.name)).toEqual(["fake1", "fake2"]);
    expect(backends[0].requests).toBeGreaterThan(0);
    expect(backends[0].errors).toBeGreaterThan(0);
    expect(backends[0].completion_tokens).toBeGreaterThan(0);
    expect(backends[0].p50_first_token_ms).not.toBeNull();
  });
});

describe("without a configured back end", () => {
  it("says chat is not available and charges nothing", async () => {
    const bare = await startTestServer({ CHAT_FREE_MESSAGES: "0" }, s.testDb);
    try {
      const status = (await bare.http.get("/api/RoleChat/status").expect(200)).body.data;
      expect(status).toMatchObject({ available: false, message: MSG.chatUnavailable });
      const conv = (
        await bare.http
          .post("/api/RoleChat/creatConversation")
          .set("token", user.token)
          .send({ character_id: (await character()).id })
          .expect(200)
      ).body.data;
      const before = await balance();
      const r = await chatCall(bare.url, "/api/RoleChat/chat", user.token, { conversation_id: conv.id, content: "anyone there?" });
      expect(r.status).toBe(503);
      expect(r.json.msg).toBe(MSG.chatUnavailable);
      await bare.http.post("/api/RoleChat/generateCharacterInfo").set("token", user.token).send({ idea: "a pirate" }).expect(503);
      expect(await balance()).toBe(before);
      expect(await s.db.chatMessage.count({ where: { conversationId: conv.id, role: "user" } })).toBe(0);
      const backends = await bare.services.chat.backendStatus();
      expect(backends.configured).toBe(false);
      expect(backends.backends).toEqual([]);
    } finally {
      await bare.stop();
    }
  });
});
