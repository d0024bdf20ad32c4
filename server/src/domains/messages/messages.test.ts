import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { photo } from "../../../../tests/fixtures/media.ts";
import { readSse } from "../../../../tests/generation-utils.ts";
import { staffMember, type StaffLogin } from "../../../../tests/staff-utils.ts";
import { registeredUser } from "../../../../tests/training-utils.ts";
import { EARNING_REASON } from "../../contract/creator-payouts.ts";
import { CREATOR_MESSAGES } from "../../contract/creators.ts";
import { MESSAGE_LEDGER_REASON, MESSAGE_MESSAGES as M } from "../../contract/messages.ts";
import { SAVE_ACCOUNT_MESSAGE } from "../../contract/users.ts";
import { MSG } from "../../http/messages.ts";
import { localMediaSigner } from "../../storage/local.storage.ts";
import { mediaUrlSecret } from "../../storage/storage.ts";

/** Issue 32 item 6: messages between fans and creators, pay-per-view through the ledger, blocks, reports and bans. */
let t: TestApp;
let moderator: StaffLogin;
let n = 0;

beforeAll(async () => {
  t = await createTestApp();
  moderator = await staffMember(t, ["moderator"]);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

type Who = { token: string; userId: number };
const key = () => `msg-key-${++n}-${Math.random()}`;
const balance = async (userId: number) => (await t.db.user.findUniqueOrThrow({ where: { id: userId } })).points;
const post = (who: Who | null, path: string, body: Record<string, unknown>) => {
  const req = t.http.post(path);
  return (who ? req.set("token", who.token) : req).send(body);
};
const send = (who: Who | null, body: Record<string, unknown>) => post(who, "/api/Messages/send", { idempotency_key: key(), ...body });
const thread = (who: Who, id: number) => t.http.get("/api/Messages/thread").query({ id }).set("token", who.token);
const threads = (who: Who, as: "fan" | "creator" = "fan") => t.http.get("/api/Messages/threads").query({ as }).set("token", who.token);
const unlock = (who: Who, messageId: number) => post(who, "/api/Messages/unlock", { message_id: messageId });
const ban = (userId: number) => t.http.post(`/admin/api/users/${userId}/ban`).set("token", moderator.token).send({ reason: "Fraud" }).expect(200);
/** A signed media URL fetched as the app does (its token header), body as bytes. */
async function media(url: string, who?: Who) {
  const u = new URL(url, "http://any-host");
  let req = t.http.get(u.pathname + u.search);
  if (who) req = req.set("token", who.token);
  const res = await req.buffer(true).parse((r, cb) => {
    const chunks: Buffer[] = [];
    r.on("data", (b: Buffer) => chunks.push(b));
    r.on("end", () => cb(null, Buffer.concat(chunks)));
  });
  return { status: res.status, body: res.body as Buffer };
}

/** A creator with a page, one finished picture published members-only on it (a real file), and a fan with `credits`. */
async function creatorAndFan(link: string, credits = 100) {
  const c = await registeredUser(t);
  await post(c, "/api/Subscribe/createPage", { home_link: link, title: `Creator ${link}` }).expect(200);
  const bytes = await photo(200, 260);
  const fileKey = `u/${c.userId}/results/message-${++n}.jpg`;
  await t.services.storage.put(fileKey, bytes, "image/jpeg");
  const task = await t.db.generationTask.create({
    data: { userId: c.userId, mode: "text_to_image", engine: "local", status: "succeeded", cost: 1, input: {}, outputKey: fileKey },
  });
  const item = (await post(c, "/api/Subscribe/publishItem", { task_id: task.id, visibility: "members" }).expect(200)).body.data.id as number;
  return { c, fan: await registeredUser(t, credits), item, bytes, link };
}

/** The fan writes first; the creator answers with the item locked behind `price`. Answers the thread and the locked message. */
async function lockedMessage(s: Awaited<ReturnType<typeof creatorAndFan>>, price = 15) {
  const first = (await send(s.fan, { home_link: s.link, body: "Hello there" }).expect(200)).body.data;
  const locked = (await send(s.c, { thread_id: first.thread_id, body: "Just for you", library_item_id: s.item, price }).expect(200)).body.data;
  return { threadId: first.thread_id as number, messageId: locked.id as number };
}

describe("one-to-one threads", () => {
  it("delivers both ways with unread counts, locks the creator's item until the fan pays once, and counts it as earnings", async () => {
    const s = await creatorAndFan("Msg1");
    const first = (await send(s.fan, { home_link: "msg1", body: "  Hello there  " }).expect(200)).body.data;
    expect(first).toMatchObject({ sender: "fan", mine: true, body: "Hello there", price: 0, locked: false, media_url: null });
    // the creator's bell: a message in this thread, from the fan (decision 312)
    expect(await t.db.notification.findMany({ where: { userId: s.c.userId, kind: "message" }, select: { subjectId: true, actorId: true } })).toEqual([
      { subjectId: first.thread_id, actorId: s.fan.userId },
    ]);
    expect((await threads(s.c, "creator").expect(200)).body.data).toMatchObject({
      unread_total: 1,
      list: [{ id: first.thread_id, as: "creator", unread: 1, last_body: "Hello there" }],
    });

    const locked = (await send(s.c, { thread_id: first.thread_id, body: "Just for you", library_item_id: s.item, price: 15 }).expect(200)).body.data;
    // the creator sees their own media; the fan sees the text, the price and the kind, never a URL
    expect(locked).toMatchObject({ sender: "creator", mine: true, price: 15, locked: false, media_kind: "image" });
    expect((await media(locked.media_url, s.c)).body.equals(s.bytes)).toBe(true);
    const fanView = (await thread(s.fan, first.thread_id).expect(200)).body.data;
    expect(fanView.thread).toMatchObject({ as: "fan", unread: 1, title: "Creator Msg1" });
    // the text is the paid message's preview, readable before paying; only the attachment is locked (decision 374)
    expect(fanView.messages[0]).toMatchObject({
      id: locked.id,
      body: "Just for you",
      locked: true,
      price: 15,
      media_kind: "image",
      media_url: null,
      poster_url: null,
    });
    await post(s.fan, "/api/Messages/read", { thread_id: first.thread_id }).expect(200);
    expect((await threads(s.fan).expect(200)).body.data.unread_total).toBe(0);

    const opened = (await unlock(s.fan, locked.id).expect(200)).body.data;
    expect(opened).toMatchObject({ locked: false, unlocked: true });
    expect((await media(opened.media_url, s.fan)).body.equals(s.bytes)).toBe(true);
    expect([await balance(s.fan.userId), await balance(s.c.userId)]).toEqual([85, 15]);
    const ledger = await t.db.ledgerEntry.findMany({ where: { reference: `message:${locked.id}` }, orderBy: { id: "asc" } });
    expect(ledger.map((e) => [e.userId, e.reason, e.delta]).sort()).toEqual(
      [
        [s.fan.userId, MESSAGE_LEDGER_REASON.unlock, -15],
        [s.c.userId, EARNING_REASON.messageUnlock, 15],
      ].sort(),
    );
    expect((await t.http.get("/api/Subscribe/earnings").set("token", s.c.token).expect(200)).body.data).toMatchObject({ earned: 15, payable: 15 });
    // a second unlock is a no-op; a free message is not locked
    await unlock(s.fan, locked.id).expect(200);
    expect(await balance(s.fan.userId)).toBe(85);
    expect((await unlock(s.fan, first.id).expect(400)).body.msg).toBe(M.notLocked);
  });

  it("charges 20 parallel unlocks of one paid message once, and a short balance nothing (never below zero)", async () => {
    const s = await creatorAndFan("Msg2", 40);
    const { messageId } = await lockedMessage(s, 30);
    const all = await Promise.all(Array.from({ length: 20 }, () => unlock(s.fan, messageId)));
    expect(all.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect([await balance(s.fan.userId), await balance(s.c.userId)]).toEqual([10, 30]);
    expect(await t.db.ledgerEntry.count({ where: { userId: s.fan.userId, reason: MESSAGE_LEDGER_REASON.unlock } })).toBe(1);
    // the creator's bell hears the one unlock, with its price (decision 312)
    const unlocks = () => t.db.notification.findMany({ where: { userId: s.c.userId, kind: "unlock" }, select: { count: true, amount: true } });
    expect(await unlocks()).toEqual([{ count: 1, amount: 30 }]);

    const poorer = await lockedMessage(s, 30);
    const refused = await Promise.all(Array.from({ length: 20 }, () => unlock(s.fan, poorer.messageId)));
    for (const r of refused) expect([r.status, r.body.msg]).toEqual([402, MSG.notEnoughCredits]);
    expect([await balance(s.fan.userId), await balance(s.c.userId)]).toEqual([10, 30]);
    expect((await t.db.message.findUniqueOrThrow({ where: { id: poorer.messageId } })).unlockedAt).toBeNull();
    expect(await unlocks()).toEqual([{ count: 1, amount: 30 }]);
    expect(await t.services.credits.findLedgerMismatches([s.fan.userId, s.c.userId])).toEqual([]);
  });

  it("keeps one fan out of another's thread and locked media, and refuses forged or forwarded URLs", async () => {
    const s = await creatorAndFan("Msg3");
    const { threadId, messageId } = await lockedMessage(s);
    const other = await registeredUser(t, 100);
    await thread(other, threadId).expect(404);
    await send(other, { thread_id: threadId, body: "let me in" }).expect(404);
    await unlock(other, messageId).expect(404);
    await post(other, "/api/Messages/block", { thread_id: threadId, blocked: 1 }).expect(404);
    // a URL the server signs for the fan before the unlock opens nothing; after it, only for that fan
    const signer = localMediaSigner(mediaUrlSecret(t.config));
    const expires = Math.floor(Date.now() / 1000) + 600;
    const forged = `/api/Messages/media?message=${messageId}&part=main&viewer=${s.fan.userId}&expires=${expires}&sig=${signer.sign(`message-media:${messageId}:main:viewer:${s.fan.userId}`, expires)}`;
    expect((await media(forged, s.fan)).status).toBe(404);
    const url = (await unlock(s.fan, messageId).expect(200)).body.data.media_url as string;
    expect((await media(url, s.fan)).status).toBe(200);
    expect((await media(url, other)).status).toBe(404);
    expect((await media(url)).status).toBe(404);
    expect((await media(url.replace(`viewer=${s.fan.userId}`, `viewer=${other.userId}`), other)).status).toBe(404);
    // the library's own signature for the same viewer opens no message file
    const librarySig = signer.sign(`creator-library:${messageId}:main:viewer:${s.fan.userId}`, expires);
    expect((await media(`/api/Messages/media?message=${messageId}&part=main&viewer=${s.fan.userId}&expires=${expires}&sig=${librarySig}`, s.fan)).status).toBe(
      404,
    );
  });

  it("refuses guests (save the account first) and anonymous callers, and fans' attachments, one's own page and refused text", async () => {
    const s = await creatorAndFan("Msg4");
    const guest = await visitor(t);
    expect((await send(guest, { home_link: "Msg4", body: "hi" }).expect(403)).body.msg).toBe(SAVE_ACCOUNT_MESSAGE);
    expect((await threads(guest).expect(403)).body.msg).toBe(SAVE_ACCOUNT_MESSAGE);
    await send(null, { home_link: "Msg4", body: "hi" }).expect(401);
    expect((await send(s.fan, { home_link: "Msg4", body: "look", library_item_id: s.item }).expect(400)).body.msg).toBe(M.fanTextOnly);
    expect((await send(s.c, { home_link: "Msg4", body: "me" }).expect(400)).body.msg).toBe(M.ownPage);
    expect((await send(s.fan, { home_link: "Msg4", body: "lolicon" }).expect(400)).body.msg).toBe(MSG.chatRefused);
    expect((await send(s.fan, { home_link: "Msg4", body: "   " }).expect(400)).body.msg).toBe(M.empty);
    expect((await send(s.fan, { home_link: "nobody-here", body: "hi" }).expect(404)).body.msg).toBe(CREATOR_MESSAGES.domainNotFound);
    const { threadId } = await lockedMessage(s);
    expect((await send(s.c, { thread_id: threadId, body: "paid", price: 5 }).expect(400)).body.msg).toBe(M.priceNeedsItem);
    const foreign = await creatorAndFan("Msg4b");
    expect((await send(s.c, { thread_id: threadId, library_item_id: foreign.item }).expect(400)).body.msg).toBe(M.itemNotOnPage);
    expect(await t.db.message.count({ where: { threadId } })).toBe(2);
  });

  it("sends a retried message (one key) once", async () => {
    const s = await creatorAndFan("Msg5");
    const body = { home_link: "Msg5", body: "once", idempotency_key: "one-tap-message-key" };
    const all = await Promise.all(Array.from({ length: 10 }, () => post(s.fan, "/api/Messages/send", body)));
    expect(all.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(all.map((r) => r.body.data.id)).size).toBe(1);
    expect((await threads(s.c, "creator")).body.data.list[0].unread).toBe(1);
  });
});

describe("mass messages, blocks, reports and bans", () => {
  /** A creator with a membership at 5 credits a period and `count` members (each with 100 credits left over). */
  async function withMembers(link: string, count: number) {
    const s = await creatorAndFan(link);
    await post(s.c, "/api/Subscribe/updatePage", { membership_price: 5 }).expect(200);
    const members: Who[] = [];
    for (let i = 0; i < count; i++) {
      const m = await registeredUser(t, 105);
      await post(m, "/api/Subscribe/joinMembership", { home_link: link }).expect(200);
      members.push(m);
    }
    return { ...s, members };
  }

  it("copies a locked mass message to every member, unlocked per fan, skipping one who blocked the creator", async () => {
    const s = await withMembers("Mass1", 3);
    const [a, b, blocker] = s.members;
    const blockThread = (await send(blocker, { home_link: "Mass1", body: "hi" }).expect(200)).body.data.thread_id;
    expect((await post(blocker, "/api/Messages/block", { thread_id: blockThread, blocked: 1 }).expect(200)).body.data.blocked).toBe(true);
    expect((await send(s.c, { thread_id: blockThread, body: "still there?" }).expect(403)).body.msg).toBe(M.blocked);

    const body = { body: "New set", library_item_id: s.item, price: 20, idempotency_key: "mass-key-1" };
    const sent = await Promise.all(Array.from({ length: 5 }, () => post(s.c, "/api/Messages/massSend", body)));
    expect(sent.map((r) => [r.status, r.body.msg])).toEqual(Array(5).fill([200, "success"]));
    expect(sent[0].body.data.recipients).toBe(2);
    expect(await t.db.message.count({ where: { massMessageId: sent[0].body.data.id } })).toBe(2);
    // each member's bell hears it once, in their own thread, however often the send was retried; the blocker's does not
    const bells = await t.db.notification.findMany({ where: { kind: "message", actorId: s.c.userId }, select: { userId: true, count: true } });
    expect(bells.sort((x, y) => x.userId - y.userId)).toEqual([a, b].map((m) => ({ userId: m.userId, count: 1 })).sort((x, y) => x.userId - y.userId));
    const copyOf = async (who: Who) => {
      const [th] = (await threads(who).expect(200)).body.data.list;
      return (await thread(who, th.id).expect(200)).body.data.messages[0];
    };
    const [copyA, copyB] = [await copyOf(a), await copyOf(b)];
    expect(copyA).toMatchObject({ mass: true, locked: true, price: 20, body: "New set" });
    await unlock(a, copyA.id).expect(200);
    expect((await copyOf(a)).locked).toBe(false);
    expect((await copyOf(b)).locked).toBe(true);
    expect([await balance(a.userId), await balance(b.userId), await balance(s.c.userId)]).toEqual([80, 100, 35]);
    await unlock(a, copyB.id).expect(404);
    expect((await thread(blocker, blockThread)).body.data.messages.map((m: { body: string }) => m.body)).toEqual(["hi"]);
    // unblocked, the creator reaches the fan again
    await post(blocker, "/api/Messages/block", { thread_id: blockThread, blocked: 0 }).expect(200);
    await send(s.c, { thread_id: blockThread, body: "welcome back" }).expect(200);
    // the creator sees what they sent to all members, once however often it was retried, with who it reached and who paid
    const massSent = (who: Who) => t.http.get("/api/Messages/massSent").set("token", who.token);
    expect((await massSent(s.c).expect(200)).body.data).toMatchObject({
      total: 1,
      list: [{ id: sent[0].body.data.id, body: "New set", with_item: true, price: 20, recipients: 2, unlocked: 1 }],
    });
    // a fan without a page has sent none; a bad page is 400
    expect((await massSent(a).expect(200)).body.data).toEqual({ list: [], total: 0 });
    await t.http.get("/api/Messages/massSent").query({ page: "x" }).set("token", s.c.token).expect(400);
    // a creator without members is told so
    const lonely = await creatorAndFan("Mass1b");
    expect((await post(lonely.c, "/api/Messages/massSend", { body: "anyone?", idempotency_key: key() }).expect(400)).body.msg).toBe(M.noMembers);
  });

  it("lets the fan report a creator's message, shows it to moderators, and a takedown hides it from both sides at once", async () => {
    const s = await creatorAndFan("Report1");
    const { threadId, messageId } = await lockedMessage(s);
    const stranger = await registeredUser(t);
    const report = (who: Who) => post(who, "/api/report", { target_type: "message", target_id: messageId, reason: "other", details: "spam" });
    await report(stranger).expect(404);
    const filed = (await report(s.fan).expect(200)).body.data.id;
    const queue = await t.http
      .get("/admin/api/reports")
      .query({ filter: JSON.stringify({ targetType: "message" }) })
      .set("token", moderator.token)
      .expect(200);
    expect(queue.body.map((r: { id: number }) => r.id)).toContain(filed);
    const reported = await t.http.get(`/admin/api/reported-threads/${threadId}`).set("token", moderator.token).expect(200);
    expect(reported.body).toMatchObject({ id: threadId, homeLink: "Report1", fanUserId: s.fan.userId });
    expect(reported.body.messages.map((m: { id: number; reported: boolean }) => [m.id, m.reported])).toContainEqual([messageId, true]);
    const list = await t.http.get("/admin/api/reported-threads").set("token", moderator.token).expect(200);
    expect(list.body.map((r: { id: number }) => r.id)).toContain(threadId);

    await t.http.post(`/admin/api/reports/${filed}/takedown`).set("token", moderator.token).send({ reason: "Spam" }).expect(200);
    for (const who of [s.fan, s.c])
      expect((await thread(who, threadId).expect(200)).body.data.messages.map((m: { id: number }) => m.id)).not.toContain(messageId);
    await unlock(s.fan, messageId).expect(404);
  });

  it("applies a ban at once: a banned creator's threads and media are gone, a banned fan cannot send or unlock", async () => {
    const s = await creatorAndFan("Banned1");
    const { threadId, messageId } = await lockedMessage(s);
    const url = (await unlock(s.fan, messageId).expect(200)).body.data.media_url as string;
    await ban(s.c.userId);
    expect((await threads(s.fan).expect(200)).body.data.list).toEqual([]);
    await thread(s.fan, threadId).expect(404);
    expect((await media(url, s.fan)).status).toBe(404);
    await send(s.fan, { thread_id: threadId, body: "hello?" }).expect(404);

    const other = await creatorAndFan("Banned2");
    const second = await lockedMessage(other);
    await ban(other.fan.userId);
    // a banned account keeps no permission (its logins are ended too)
    await send(other.fan, { thread_id: second.threadId, body: "hi" }).expect(403);
    await unlock(other.fan, second.messageId).expect(403);
    expect(await t.db.ledgerEntry.count({ where: { userId: other.fan.userId, reason: MESSAGE_LEDGER_REASON.unlock } })).toBe(0);
  });

  it("erases an account's threads, as a fan and as a creator, with their messages", async () => {
    const s = await creatorAndFan("Erase1");
    const { threadId } = await lockedMessage(s);
    await t.db.$transaction((tx) => t.services.messages.eraseUser(tx, s.fan.userId));
    expect(await t.db.message.count({ where: { threadId } })).toBe(0);
    const other = await creatorAndFan("Erase2");
    await lockedMessage(other);
    await t.db.$transaction((tx) => t.services.messages.eraseUser(tx, other.c.userId));
    expect(await t.db.messageThread.count({ where: { fanUserId: other.fan.userId } })).toBe(0);
  });

  it("delivers a message to the other side's open event stream as a `message` event", async () => {
    const s = await creatorAndFan("Stream1");
    const first = (await send(s.fan, { home_link: "Stream1", body: "hi" }).expect(200)).body.data;
    const address = await new Promise<string>((resolve) => {
      const server = t.app.listen(0, "127.0.0.1", () => {
        const a = server.address() as { port: number };
        afterAll(() => new Promise<void>((r) => server.close(() => r())));
        resolve(`http://127.0.0.1:${a.port}`);
      });
    });
    // a running task of the fan's: its snapshot is the stream's first event, sent once the stream listens
    await t.db.generationTask.create({ data: { userId: s.fan.userId, mode: "text_to_image", engine: "local", status: "running", cost: 1, input: {} } });
    let listening!: () => void;
    const firstEvent = new Promise<void>((r) => (listening = r));
    const heard = readSse(
      `${address}/api/Generation/progress`,
      s.fan.token,
      (events) => {
        if (events.length) listening();
        return events.some((e) => e.thread_id === first.thread_id);
      },
      10_000,
    );
    await Promise.race([firstEvent, heard]);
    const reply = (await send(s.c, { thread_id: first.thread_id, body: "hello back" }).expect(200)).body.data;
    expect((await heard).find((e) => e.thread_id === first.thread_id)).toMatchObject({ message_id: reply.id, change: "new", unread: 1 });
  });
});
