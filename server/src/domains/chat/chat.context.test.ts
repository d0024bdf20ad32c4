import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visitor } from "../../../../tests/db-utils.ts";
import { startTestServer } from "../../../../tests/server-utils.ts";
import { chatBackendsEnv, chatCall, newConversation } from "../../../../tests/chat-utils.ts";
import { defaultBehaviour, startFakeOpenAi, type FakeOpenAi } from "../../../../tests/fixtures/fake-openai.ts";
import { MSG } from "../../http/messages.ts";
import { countTokens } from "./prompt.ts";

const CONTEXT = 700;
const REPLY = 64;
let s: Awaited<ReturnType<typeof startTestServer>>;
let fake: FakeOpenAi;

beforeAll(async () => {
  fake = await startFakeOpenAi({ flagged: /FORBIDDEN-BY-MODEL/ });
  s = await startTestServer({
    CHAT_BACKENDS: chatBackendsEnv([fake], { contextTokens: CONTEXT, maxReplyTokens: REPLY }),
    CHAT_FREE_MESSAGES: "2",
    CHAT_MODERATION_URL: fake.url,
  });
}, 60_000);
afterAll(async () => {
  await s?.stop();
  await fake?.close();
});

const conversation = (token: string) => newConversation(s, token);

const promptTokens = (messages: { content: string }[]) => messages.reduce((n, m) => n + countTokens(m.content) + 4, 0);

describe("long conversations", () => {
  it("stay within the model's context size and keep a running summary of what fell out", async () => {
    fake.setRespond((b) => ({ ...(defaultBehaviour(b) as { kind: "stream"; text: string }) }));
    const guest = await visitor(s);
    await s.services.credits.grant({ userId: guest.userId, amount: 100, reason: "test", idempotencyKey: `ctx:${guest.userId}` });
    const conv = await conversation(guest.token);
    const words = (i: number) => `Turn ${i}: ${Array.from({ length: 60 }, (_, k) => `fact${i}x${k}`).join(" ")}`;
    for (let i = 0; i < 12; i++) {
      const r = await chatCall(s.url, "/api/RoleChat/chat", guest.token, { conversation_id: conv.id, content: words(i) });
      expect(r.events.at(-1)!.data.reply.status).toBe("complete");
    }
    const replies = fake.calls.filter((c) => !c.body.messages[0].content.startsWith("You keep the memory"));
    const summaries = fake.calls.filter((c) => c.body.messages[0].content.startsWith("You keep the memory"));
    expect(replies).toHaveLength(12);
    for (const c of [...replies, ...summaries]) expect(promptTokens(c.body.messages) + (c.body.max_tokens ?? 0)).toBeLessThanOrEqual(CONTEXT);
    // the early turns no longer fit: they were summarised, and later prompts carry the summary
    expect(summaries.length).toBeGreaterThan(0);
    expect(summaries[0].body.messages[1].content).toContain("Turn 0:");
    const stored = await s.db.conversation.findUniqueOrThrow({ where: { id: conv.id } });
    expect(stored.summary).toMatch(/^Summary:/);
    expect(stored.summaryUpToId).not.toBeNull();
    const last = replies.at(-1)!.body.messages;
    // the last reply carries a summary the memory keeper wrote (the stored one may be newer: it is refreshed after a reply)
    expect(last[0].content).toContain("summary");
    const written = summaries.map((c) => (defaultBehaviour(c.body) as { text: string }).text);
    expect(written.some((summary) => last[0].content.includes(summary))).toBe(true);
    expect(last.some((m) => m.content.startsWith("Turn 0:"))).toBe(false);
    expect(last.at(-1)!.content).toBe(words(11));
    // a summary that covers turns 0.. is kept moving forward, not dropped
    expect(summaries.length).toBeGreaterThan(1);
    expect(summaries.at(-1)!.body.messages[1].content).toContain("Summary so far:");
  }, 60_000);
});

describe("guests and the moderation model", () => {
  it("a guest gets the configured free replies, counted once under concurrency, then 'Please get points first'", async () => {
    fake.setRespond(defaultBehaviour);
    const guest = await visitor(s);
    const conv = await conversation(guest.token);
    expect((await s.http.get("/api/RoleChat/status").set("token", guest.token).expect(200)).body.data.free_left).toBe(2);
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => chatCall(s.url, "/api/RoleChat/chat", guest.token, { conversation_id: conv.id, content: `free ${i}` })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(2);
    for (const r of results.filter((r) => r.status !== 200)) expect(r.json.msg).toBe(MSG.notEnoughCredits);
    expect((await s.http.get("/api/RoleChat/status").set("token", guest.token).expect(200)).body.data.free_left).toBe(0);
    expect(await s.db.ledgerEntry.count({ where: { userId: guest.userId } })).toBe(0);
  }, 30_000);

  it("a message the moderation endpoint flags is refused like a rule hit", async () => {
    const guest = await visitor(s);
    const conv = await conversation(guest.token);
    const r = await chatCall(s.url, "/api/RoleChat/chat", guest.token, { conversation_id: conv.id, content: "something FORBIDDEN-BY-MODEL here" });
    expect(r.status).toBe(400);
    expect(r.json.msg).toBe(MSG.chatRefused);
    expect(fake.moderations).toContain("something FORBIDDEN-BY-MODEL here");
    const hit = await s.db.chatPolicyHit.findFirstOrThrow({ where: { userId: guest.userId } });
    expect(hit.rule).toBe("moderation:sexual/minors");
  });
});
