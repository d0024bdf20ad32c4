import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, visitor, type TestDb } from "../../../../tests/db-utils.ts";
import { grant } from "../../../../tests/generation-utils.ts";
import { startTestServer } from "../../../../tests/server-utils.ts";
import { staffMember, type StaffLogin } from "../../../../tests/staff-utils.ts";
import { chatBackendsEnv, newConversation, readEvents, streamedText, type ChatEvent } from "../../../../tests/chat-utils.ts";
import { startFakeOpenAi, type FakeOpenAi } from "../../../../tests/fixtures/fake-openai.ts";
import { MSG } from "../../http/messages.ts";

/**
 * Issue 29 item 2: a ban stops a chat reply already streaming, on any instance, within a second: its readers get the
 * ban notice and the end, no token after it, and the reply is not charged.
 */
type Server = Awaited<ReturnType<typeof startTestServer>>;
let testDb: TestDb;
let a: Server;
let b: Server;
let fake: FakeOpenAi;
let moderator: StaffLogin;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  testDb = await createTestDb();
  // the reply is written on A; the ban arrives at B; a second reader follows the reply from B
  const env = { CHAT_BACKENDS: chatBackendsEnv([fake], { maxReplyTokens: 4000 }), CHAT_FREE_MESSAGES: "0" };
  a = await startTestServer(env, testDb);
  b = await startTestServer(env, testDb);
  moderator = await staffMember(b, ["moderator"]);
}, 60_000);
afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await fake?.close();
  await testDb?.drop();
});

const conversation = (token: string) => newConversation(a, token);

/** Opens a reader of the reply's events; resolves with them once the server ends the stream. */
function read(url: string, init: RequestInit): { events: Promise<ChatEvent[]>; seen: ChatEvent[] } {
  const controller = new AbortController();
  const seen: ChatEvent[] = [];
  const events = fetch(url, { ...init, signal: controller.signal }).then((res) =>
    readEvents(res, controller, performance.now(), (e) => {
      seen.splice(0, seen.length, ...e);
      return false;
    }),
  );
  return { events, seen };
}

const until = async (check: () => boolean, ms = 10_000) => {
  for (const end = Date.now() + ms; !check() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 20));
};

describe("a ban while a chat reply streams", () => {
  it("ends the reply at once on every reader with the ban notice, and refunds it", async () => {
    const u = await visitor(a);
    await grant(a, u.userId, 5);
    const conv = await conversation(u.token);
    fake.setRespond(() => ({ kind: "stream", text: "word ".repeat(2000), tokenDelayMs: 10 }));
    const writer = read(`${a.url}/api/RoleChat/chat`, {
      method: "POST",
      headers: { token: u.token, "Content-Type": "application/json" },
      body: JSON.stringify({ conversation_id: conv.id, content: "Tell me a long story" }),
    });
    await until(() => writer.seen.some((e) => e.event === "token"));
    const replyId = writer.seen.find((e) => e.event === "start")!.data.reply.id as number;
    const follower = read(`${b.url}/api/RoleChat/replyStream?reply_id=${replyId}`, { headers: { token: u.token } });
    await until(() => follower.seen.some((e) => e.event === "token"));
    expect((await testDb.db.user.findUniqueOrThrow({ where: { id: u.userId } })).points).toBe(4);

    const banned = performance.now();
    await b.http.post(`/admin/api/users/${u.userId}/ban`).set("token", moderator.token).send({ reason: "Abuse" }).expect(200);
    const [written, followed] = await Promise.all([writer.events, follower.events]);
    const endedAfter = performance.now() - banned;
    expect(endedAfter).toBeLessThan(1000);

    for (const events of [written, followed]) {
      const tail = events.slice(-2).map((e) => e.event);
      expect(tail).toEqual(["refused", "end"]);
      expect(events.at(-2)!.data.msg).toBe(MSG.noLoginPermission);
    }
    // not delivered whole, so not charged: the charge and its refund, once each
    const reply = await testDb.db.chatMessage.findUniqueOrThrow({ where: { id: replyId } });
    expect(reply).toMatchObject({ status: "stopped", credits: 0 });
    expect(streamedText(written).length).toBeLessThan(5000);
    expect((await testDb.db.user.findUniqueOrThrow({ where: { id: u.userId } })).points).toBe(5);
    const ledger = await testDb.db.ledgerEntry.findMany({ where: { reference: `chat_message:${replyId}` } });
    expect(ledger.map((l) => l.delta).sort()).toEqual([-1, 1]);
  }, 30_000);
});
