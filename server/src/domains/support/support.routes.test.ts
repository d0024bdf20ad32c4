import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { staffMember, type StaffLogin } from "../../../../tests/staff-utils.ts";
import { seedProducts } from "../products/products.seed.ts";

let t: TestApp;
let support: StaffLogin;
let productId: number;

beforeAll(async () => {
  t = await createTestApp();
  await seedProducts(t.db);
  productId = (await t.db.product.findFirstOrThrow({ where: { code: "credits_150" } })).id;
  support = await staffMember(t, ["support"]);
});
afterAll(() => t.close());

const write = (token: string, body: Record<string, unknown>) => t.http.post("/api/support/messages").set("token", token).send(body);
const thread = async (token: string) => (await t.http.get("/api/support/thread").set("token", token).expect(200)).body.data;

async function orderOf(token: string): Promise<{ order_id: number; order_no: string }> {
  const res = await t.http.post("/api/order/createOrderAndPay").set("token", token).send({ product_id: productId, provider: "sandbox", agree_terms: true });
  return res.body.data;
}

describe("support inbox: the person writes, support answers, the person reads the answer", () => {
  it("a guest writes about their order; support sees it in the queue and answers; the reply is unread until seen", async () => {
    const guest = await visitor(t);
    const order = await orderOf(guest.token);
    const first = (await write(guest.token, { body: "My payment did not go through", order_id: order.order_id }).expect(200)).body.data;
    expect(first.thread).toMatchObject({ status: "open", order_id: order.order_id, order_no: order.order_no });
    expect(first.thread.messages.map((m: { author: string; body: string }) => [m.author, m.body])).toEqual([["person", "My payment did not go through"]]);

    const queue = await t.http
      .get(`/admin/api/support-threads?filter=${encodeURIComponent(JSON.stringify({ userId: guest.userId }))}`)
      .set("token", support.token)
      .expect(200);
    expect(queue.body).toHaveLength(1);
    expect(queue.body[0]).toMatchObject({ userId: guest.userId, orderId: order.order_id, status: "open", assigneeId: null, lastAuthor: "person" });
    expect(queue.body[0]).not.toHaveProperty("messages");

    const id = queue.body[0].id;
    const answered = await t.http.post(`/admin/api/support-threads/${id}/reply`).set("token", support.token).send({ body: "We have refunded it." }).expect(200);
    expect(answered.body).toMatchObject({ status: "answered", assigneeId: support.staffId, lastAuthor: "staff" });
    const requeued = await t.http
      .get(`/admin/api/support-threads?filter=${encodeURIComponent(JSON.stringify({ userId: guest.userId }))}`)
      .set("token", support.token);
    expect(requeued.body[0]).toMatchObject({ preview: "We have refunded it.", lastAuthor: "staff" });

    const seen = await thread(guest.token);
    expect(seen.unread).toBe(1);
    expect(seen.thread.messages.at(-1)).toMatchObject({ author: "staff", body: "We have refunded it." });
    expect((await t.http.post("/api/support/read").set("token", guest.token).expect(200)).body.data).toEqual({ unread: 0 });
    expect((await thread(guest.token)).unread).toBe(0);
    // a guest has no email: nothing is sent
    expect(await t.db.outboxEmail.count({ where: { subject: { contains: "support" } } })).toBe(0);

    // the person's answer reopens it for support
    await write(guest.token, { body: "Thanks, got it" }).expect(200);
    expect((await t.http.get(`/admin/api/support-threads/${id}`).set("token", support.token).expect(200)).body).toMatchObject({
      status: "open",
      orderId: order.order_id,
    });
    expect(await t.db.auditLog.count({ where: { resource: "SupportThread", resourceId: String(id), action: "reply" } })).toBe(1);
  });

  it("emails the reply, in the person's language, when they have an address on file", async () => {
    const person = await visitor(t);
    await t.db.user.update({ where: { id: person.userId }, data: { email: `support-${person.userId}@example.com`, language: "ru" } });
    await write(person.token, { body: "Где мои кредиты?" }).expect(200);
    const id = (await t.db.supportThread.findFirstOrThrow({ where: { userId: person.userId } })).id;
    await t.http.post(`/admin/api/support-threads/${id}/reply`).set("token", support.token).send({ body: "Уже на балансе." }).expect(200);
    const mail = await t.db.outboxEmail.findFirstOrThrow({ where: { to: `support-${person.userId}@example.com` } });
    expect(mail.subject).toBe("Поддержка Reverie ответила вам");
    expect(mail.body).toContain("Уже на балансе.");
  });

  it("keeps one person's conversation from everyone else, and their orders out of it", async () => {
    const owner = await visitor(t);
    const other = await visitor(t);
    const order = await orderOf(owner.token);
    await write(owner.token, { body: "private question" }).expect(200);
    expect(await thread(other.token)).toEqual({ thread: null, unread: 0 });
    // another person's order is answered like a missing one, and nothing is written
    expect((await write(other.token, { body: "about that order", order_id: order.order_id })).status).toBe(404);
    expect(await t.db.supportThread.count({ where: { userId: other.userId } })).toBe(0);
    await t.http.get("/api/support/thread").expect(401);
  });

  it("lets support and admins into the inbox, not marketers or moderators", async () => {
    const person = await visitor(t);
    await write(person.token, { body: "hello" }).expect(200);
    const id = (await t.db.supportThread.findFirstOrThrow({ where: { userId: person.userId } })).id;
    for (const role of ["marketer", "moderator"] as const) {
      const staff = await staffMember(t, [role]);
      await t.http.get("/admin/api/support-threads").set("token", staff.token).expect(403);
      await t.http.post(`/admin/api/support-threads/${id}/reply`).set("token", staff.token).send({ body: "no" }).expect(403);
    }
    const admin = await staffMember(t, ["admin"]);
    await t.http.put(`/admin/api/support-threads/${id}`).set("token", admin.token).send({ assigneeId: admin.staffId }).expect(200);
    const closed = await t.http.put(`/admin/api/support-threads/${id}`).set("token", admin.token).send({ status: "closed" }).expect(200);
    expect(closed.body).toMatchObject({ status: "closed", assigneeId: admin.staffId });
    expect((await t.http.post(`/admin/api/support-threads/${id}/reply`).set("token", admin.token).send({ body: "late" })).status).toBe(409);
    // a message after closing starts a new conversation
    await write(person.token, { body: "one more thing" }).expect(200);
    expect(await t.db.supportThread.count({ where: { userId: person.userId } })).toBe(2);
    // the old one cannot be reopened beside the new one
    const reopened = await t.http.put(`/admin/api/support-threads/${id}`).set("token", admin.token).send({ status: "open" });
    expect([reopened.status, reopened.body.msg]).toEqual([409, "This person already has an open conversation"]);
  });

  it("refuses handing a thread to a staff member who does not exist, and changes nothing", async () => {
    const person = await visitor(t);
    await write(person.token, { body: "who has this?" }).expect(200);
    const id = (await t.db.supportThread.findFirstOrThrow({ where: { userId: person.userId } })).id;
    const res = await t.http.put(`/admin/api/support-threads/${id}`).set("token", support.token).send({ assigneeId: 2_000_000_000 });
    expect(res.status).toBe(400);
    expect((await t.db.supportThread.findUniqueOrThrow({ where: { id } })).assigneeId).toBeNull();
  });

  it("refuses empty and overlong messages with a clear message and writes nothing", async () => {
    const person = await visitor(t);
    expect((await write(person.token, { body: "   " }).expect(400)).body.msg).toBe("Please write a message");
    expect((await write(person.token, { body: "x".repeat(2001) }).expect(400)).body.msg).toBe("A message may be at most 2000 characters");
    expect((await write(person.token, { body: "ok", order_id: "abc" }).expect(400)).body.msg).toBe("order_id must be a number");
    expect(await t.db.supportThread.count({ where: { userId: person.userId } })).toBe(0);
  });

  it("opens one conversation for 20 first messages sent at once", async () => {
    const person = await visitor(t);
    const sent = await Promise.all(Array.from({ length: 20 }, (_, i) => write(person.token, { body: `message ${i}` })));
    expect(sent.map((r) => r.status)).toEqual(Array(20).fill(200));
    const threads = await t.db.supportThread.findMany({ where: { userId: person.userId }, include: { messages: true } });
    expect(threads).toHaveLength(1);
    expect(threads[0]!.messages).toHaveLength(20);
  });
});

describe("support inbox and account erasure (GDPR Art. 17, decision 262)", () => {
  it("an erased account's conversations and messages go with it", async () => {
    const person = await visitor(t);
    await write(person.token, { body: "my card ending 4242 was charged twice" }).expect(200);
    const id = (await t.db.supportThread.findFirstOrThrow({ where: { userId: person.userId } })).id;
    await t.http.post(`/admin/api/support-threads/${id}/reply`).set("token", support.token).send({ body: "Refunded." }).expect(200);
    const asked = await t.http.post("/api/privacy/deletion").set("token", person.token).send({ confirm: true }).expect(200);
    expect(await t.services.privacy.eraseDue(asked.body.data.id, new Date(Date.now() + 400 * 86_400_000))).toBe(true);
    expect(await t.db.supportThread.count({ where: { userId: person.userId } })).toBe(0);
    expect(await t.db.supportMessage.count({ where: { threadId: id } })).toBe(0);
  });
});

describe("support rate limit", () => {
  it("caps the messages one account sends per hour, with a message the person can read", async () => {
    const limited = await createTestApp({ RATE_LIMIT_SUPPORT_PER_HOUR: "2" }, t.testDb);
    const { token } = await visitor(limited);
    const send = () => limited.http.post("/api/support/messages").set("token", token).send({ body: "hi" });
    await send().expect(200);
    await send().expect(200);
    expect((await send()).body).toEqual({ code: 429, msg: "You have done this too often in the last hour. Please try again later", data: null });
  });
});
