import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, visitor, type TestDb } from "../../../../tests/db-utils.ts";
import { GENERATION_TEST_ENV } from "../../../../tests/generation-utils.ts";
import { freePort } from "../../../../tests/net-utils.ts";
import { startTestServer } from "../../../../tests/server-utils.ts";
import { staffMember, type StaffLogin } from "../../../../tests/staff-utils.ts";
import { seedProducts } from "../products/products.seed.ts";

/** Issue 12 item 4: a ban (and a logout) ends that account's open progress streams on every instance, at once. */
type Server = Awaited<ReturnType<typeof startTestServer>>;
let testDb: TestDb;
let a: Server;
let b: Server;
let moderator: StaffLogin;

beforeAll(async () => {
  testDb = await createTestDb();
  // two API instances on one database: the stream is open on A, the ban or logout arrives at B
  const port = await freePort();
  a = await startTestServer({ ...GENERATION_TEST_ENV, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` }, testDb);
  b = await startTestServer(GENERATION_TEST_ENV, testDb);
  moderator = await staffMember(b, ["moderator"]);
  await seedProducts(testDb.db);
}, 60_000);
afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await testDb?.drop();
});

/**
 * Opens the progress stream on A and resolves once its first event (the snapshot of the account's running task) has
 * come: the stream subscribes before it sends anything, so it is listening then. `ended` resolves with the events and
 * how long after `start()` the server ended it.
 */
async function openStream(token: string) {
  const res = await fetch(`${a.url}/api/Generation/progress`, { headers: { token } });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let mark = 0;
  let firstEvent!: () => void;
  const listening = new Promise<void>((r) => (firstEvent = r));
  const ended = (async () => {
    const deadline = setTimeout(() => void reader.cancel(), 10_000);
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (/^event: progress\ndata: .*\n\n/m.test(text)) firstEvent();
    }
    clearTimeout(deadline);
    firstEvent();
    return { text, afterMs: performance.now() - mark };
  })();
  await listening;
  expect(text).toMatch(/^event: progress\n/);
  return { ended, start: () => (mark = performance.now()) };
}

const queuedTask = (userId: number) =>
  testDb.db.generationTask.create({ data: { userId, mode: "image_to_video", engine: "local", status: "running", progress: 10, cost: 2, input: {} } });

describe("ban", () => {
  it("ends the account's open stream on another instance within a second, and cancels its renders with a refund", async () => {
    const user = await visitor(a);
    await a.services.credits.grant({ userId: user.userId, amount: 2, reason: "test", idempotencyKey: `g-${user.userId}` });
    await a.services.credits.charge({ userId: user.userId, amount: 2, reason: "generation", idempotencyKey: `c-${user.userId}` });
    const task = await queuedTask(user.userId);
    const stream = await openStream(user.token);
    stream.start();
    await b.http.post(`/admin/api/users/${user.userId}/ban`).set("token", moderator.token).send({ reason: "Abuse" }).expect(200);
    const { afterMs } = await stream.ended;
    expect(afterMs).toBeLessThan(1500);
    const after = await testDb.db.generationTask.findUniqueOrThrow({ where: { id: task.id } });
    expect(after.status).toBe("failed");
    expect((await testDb.db.user.findUniqueOrThrow({ where: { id: user.userId } })).points).toBe(2);
    // a worker that finishes the render later cannot deliver it
    expect(await a.services.generation.complete(after, { mainKey: "x", posterKey: "y", extraKeys: [], width: 1, height: 1 })).toBe(false);
  });
});

describe("logout", () => {
  it("ends that login's open stream on another instance within a second", async () => {
    const user = await visitor(a);
    // a running task, whose snapshot is the stream's first event
    await queuedTask(user.userId);
    const stream = await openStream(user.token);
    stream.start();
    await b.http.post("/api/login/logout").set("token", user.token).expect(200);
    const { afterMs } = await stream.ended;
    expect(afterMs).toBeLessThan(1500);
  });
});

describe("a checkout paid after a ban", () => {
  it("credits nobody and is refunded through the provider", async () => {
    const login = await (await fetch(`${a.url}/api/login/visitor`, { method: "POST" })).json();
    const token = login.data.token as string;
    const userId = login.data.user_info.id as number;
    const productId = (await testDb.db.product.findUniqueOrThrow({ where: { code: "credits_150" } })).id;
    const order = await (
      await fetch(`${a.url}/api/order/createOrderAndPay`, {
        method: "POST",
        headers: { token, "content-type": "application/json" },
        body: JSON.stringify({ product_id: productId, provider: "sandbox", agree_terms: true }),
      })
    ).json();
    expect(order.code).toBe(200);
    await b.http.post(`/admin/api/users/${userId}/ban`).set("token", moderator.token).send({ reason: "Fraud" }).expect(200);
    // the buyer pays on the checkout page opened before the ban
    const paid = await fetch(`${order.data.pay_url}/pay`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(paid.status).toBe(303);
    const row = await testDb.db.order.findUniqueOrThrow({ where: { id: order.data.order_id } });
    expect(row).toMatchObject({ status: "refunded", failureReason: "account_banned" });
    expect((await testDb.db.user.findUniqueOrThrow({ where: { id: userId } })).points).toBe(0);
    expect(await testDb.db.ledgerEntry.count({ where: { userId } })).toBe(0);
    expect((await testDb.db.sandboxSession.findFirstOrThrow({ where: { orderNo: row.orderNo } })).status).toBe("refunded");
  });
});
