import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visitor } from "../../../../tests/db-utils.ts";
import { grant } from "../../../../tests/generation-utils.ts";
import { startTestServer } from "../../../../tests/server-utils.ts";
import { chatBackendsEnv, chatCall, newConversation, streamedText } from "../../../../tests/chat-utils.ts";
import { startFakeOpenAi, type FakeOpenAi } from "../../../../tests/fixtures/fake-openai.ts";
import { MSG } from "../../http/messages.ts";

/**
 * The moderation endpoint checks a reply while it streams (decision 182): a reply the model flags part-way is stopped
 * there, refused, not charged, and recorded; a clean reply is checked in steps and streams on undelayed.
 */
let s: Awaited<ReturnType<typeof startTestServer>>;
let fake: FakeOpenAi;

beforeAll(async () => {
  // the rule set does not know this marker: only the moderation model can catch it
  fake = await startFakeOpenAi({ flagged: /FLAGGED-BY-MODEL/ });
  s = await startTestServer({
    CHAT_BACKENDS: chatBackendsEnv([fake], { maxReplyTokens: 2000 }),
    CHAT_FREE_MESSAGES: "0",
    CHAT_MODERATION_URL: fake.url,
    CHAT_MODERATION_STREAM_CHARS: "60",
  });
}, 60_000);
afterAll(async () => {
  await s?.stop();
  await fake?.close();
});

const conversation = (token: string) => newConversation(s, token);

const sentences = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `This is calm sentence number ${from + i} of the story.`).join(" ");

describe("moderation while a reply streams", () => {
  it("stops a reply the moderation model flags part-way: refused, refunded, recorded, the rest never sent", async () => {
    const u = await visitor(s);
    await grant(s, u.userId, 5);
    const conv = await conversation(u.token);
    const text = `${sentences(4)} Then FLAGGED-BY-MODEL content. ${sentences(60, 100)}`;
    fake.setRespond(() => ({ kind: "stream", text, tokenDelayMs: 15 }));
    const before = fake.moderations.length;
    const { status, events } = await chatCall(s.url, "/api/RoleChat/chat", u.token, { conversation_id: conv.id, content: "Tell me a story" });
    expect(status).toBe(200);
    const shown = streamedText(events);
    // stopped soon after the flagged sentence, long before the reply's end
    expect(shown).toContain("FLAGGED-BY-MODEL");
    expect(shown.length).toBeLessThan(text.length / 2);
    expect(events.some((e) => e.event === "refused" && e.data.msg === MSG.chatRefused)).toBe(true);
    const end = events.find((e) => e.event === "end")!;
    expect(end.data.reply).toMatchObject({ status: "refused", content: "" });
    // the model saw partial replies, not only a finished one
    const partial = fake.moderations.slice(before).filter((m) => m !== "Tell me a story");
    expect(partial.length).toBeGreaterThan(1);
    expect(partial.every((m) => text.startsWith(m))).toBe(true);
    // not charged: the charge and its refund, once each
    expect((await s.db.user.findUniqueOrThrow({ where: { id: u.userId } })).points).toBe(5);
    const ledger = await s.db.ledgerEntry.findMany({ where: { reference: `chat_message:${end.data.reply.id}` } });
    expect(ledger.map((l) => l.delta).sort()).toEqual([-1, 1]);
    const hit = await s.db.chatPolicyHit.findFirstOrThrow({ where: { userId: u.userId } });
    expect(hit).toMatchObject({ source: "reply", rule: "moderation:sexual/minors", conversationId: conv.id });
    expect(hit.excerpt).toContain("FLAGGED-BY-MODEL");
    const stored = await s.db.chatMessage.findUniqueOrThrow({ where: { id: end.data.reply.id } });
    expect(stored).toMatchObject({ status: "refused", content: "", credits: 0 });
  }, 30_000);

  it("checks a clean reply in steps while it streams, and delivers all of it, charged once", async () => {
    const u = await visitor(s);
    await grant(s, u.userId, 5);
    const conv = await conversation(u.token);
    const text = sentences(20);
    fake.setRespond(() => ({ kind: "stream", text, tokenDelayMs: 10 }));
    const before = fake.moderations.length;
    const { events } = await chatCall(s.url, "/api/RoleChat/chat", u.token, { conversation_id: conv.id, content: "Another story" });
    expect(streamedText(events)).toBe(text);
    expect(events.find((e) => e.event === "end")!.data.reply.status).toBe("complete");
    const checks = fake.moderations.slice(before).filter((m) => m !== "Another story");
    // several checks of growing prefixes at sentence ends, then the whole reply
    expect(checks.length).toBeGreaterThan(3);
    expect(checks.at(-1)).toBe(text);
    expect(checks.slice(0, -1).every((m) => text.startsWith(m) && /\.\s?$/.test(m))).toBe(true);
    expect((await s.db.user.findUniqueOrThrow({ where: { id: u.userId } })).points).toBe(4);
  }, 30_000);
});
