import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatBackendsEnv, chatCall, newConversation } from "../../../tests/chat-utils.ts";
import { visitor } from "../../../tests/db-utils.ts";
import { defaultBehaviour, startFakeOpenAi, type FakeOpenAi } from "../../../tests/fixtures/fake-openai.ts";
import { photo } from "../../../tests/fixtures/media.ts";
import { GENERATION_TEST_ENV, startWorkerFor, waitForTask } from "../../../tests/generation-utils.ts";
import { parsePrometheusText } from "../../../tests/prometheus-text.ts";
import { startTestServer } from "../../../tests/server-utils.ts";
import { staffMember } from "../../../tests/staff-utils.ts";
import { METRIC } from "../contract/metrics.ts";
import { seedProducts } from "../domains/products/products.seed.ts";
import { signNotification } from "../domains/payments/providers/signature.ts";

const TOKEN = "scrape-token-0123456789abcdef";
const SECRET = "sandbox-test-secret-0123456789";
let s: Awaited<ReturnType<typeof startTestServer>>;
let failing: FakeOpenAi;
let working: FakeOpenAi;

beforeAll(async () => {
  failing = await startFakeOpenAi({ apiKey: "sk-test", respond: () => ({ kind: "error", status: 500 }) });
  working = await startFakeOpenAi({ apiKey: "sk-test" });
  s = await startTestServer({
    ...GENERATION_TEST_ENV,
    // no address is let in without the token: the test's own loopback requests must present it
    METRICS_ALLOW: "",
    METRICS_TOKEN: TOKEN,
    SANDBOX_WEBHOOK_SECRET: SECRET,
    CHAT_BACKENDS: chatBackendsEnv([failing, working]),
    CHAT_FREE_MESSAGES: "0",
  });
  await seedProducts(s.db);
}, 60_000);
afterAll(async () => {
  await s?.stop();
  await failing?.close();
  await working?.close();
});

/** One sample: its labels and value. */
type Sampled = { labels: Record<string, string>; value: number };

/** Scrapes /metrics and parses it strictly: series name -> samples (a histogram's: its `_count` per label set). */
async function scrape(): Promise<Map<string, Sampled[]>> {
  const res = await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  const series = new Map<string, Sampled[]>();
  for (const [name, f] of parsePrometheusText(await res.text())) {
    const counted = f.type === "histogram" ? f.samples.filter((m) => m.name === `${name}_count`) : f.samples;
    series.set(
      name,
      counted.map((m) => ({ labels: m.labels, value: m.value })),
    );
  }
  return series;
}

/** The value of a series' sample whose labels include `labels`, 0 when there is none. */
function sampled(series: Map<string, Sampled[]>, name: string, labels: Record<string, string> = {}): number {
  const found = series.get(name)?.filter((m) => Object.entries(labels).every(([k, v]) => m.labels[k] === v)) ?? [];
  return found.reduce((sum, m) => sum + m.value, 0);
}

describe("/metrics", () => {
  it("is refused without the token, or with a wrong one, from an address not on the allow-list", async () => {
    const tries: Record<string, string>[] = [{}, { authorization: "Bearer wrong-token-0123456789" }, { authorization: TOKEN }];
    for (const headers of tries) {
      const res = await fetch(`${s.url}/metrics`, { headers });
      expect(res.status).toBe(403);
      expect(await res.text()).not.toMatch(/reverie_/);
    }
  });

  it("is off the public API: not under /api and not in the OpenAPI document", async () => {
    const doc = await (await fetch(`${s.url}/api/docs`)).json();
    expect(Object.keys(doc.paths).filter((p) => p.includes("metrics"))).toEqual([]);
  });

  it("serves every named series, and each moves when the system does something", async () => {
    const before = await scrape();
    for (const name of Object.values(METRIC)) expect(before.has(name), name).toBe(true);
    expect(sampled(before, METRIC.engineUp, { engine: "local" })).toBe(1);

    const u = await visitor(s);
    // a payment: one notification applied, the same one again (a duplicate), and a forged one
    const created = await s.http
      .post("/api/order/createOrderAndPay")
      .set("token", u.token)
      .send({ product_id: (await s.db.product.findFirstOrThrow({ where: { code: "credits_150" } })).id, provider: "sandbox", agree_terms: true })
      .expect(200);
    const body = JSON.stringify({
      id: `sbevt_${crypto.randomBytes(6).toString("hex")}`,
      type: "payment.succeeded",
      created: Math.floor(Date.now() / 1000),
      data: {
        session_id: created.body.data.session_id,
        order_no: created.body.data.order_no,
        amount: (await s.db.order.findUniqueOrThrow({ where: { orderNo: created.body.data.order_no } })).finalPriceMinor,
        currency: "USD",
        status: "succeeded",
      },
    });
    const deliver = (signature: string) =>
      s.http.post("/api/pay/webhook/sandbox").set("content-type", "application/json").set("sandbox-signature", signature).send(body);
    await deliver(signNotification(SECRET, body)).expect(200);
    await deliver(signNotification(SECRET, body)).expect(200);
    await deliver(signNotification("not-the-secret-0123456789", body)).expect(400);

    // an outbox row waiting to be delivered
    const order = await s.db.order.findFirstOrThrow({ where: { userId: u.userId } });
    const conversion = await s.db.purchaseConversion.upsert({
      where: { orderId: order.id },
      create: { orderId: order.id, userId: u.userId, eventId: `purchase-${order.id}`, valueMinor: 1299, currency: "USD", advertisingConsent: true },
      update: {},
    });
    await s.db.conversionDelivery.create({ data: { conversionId: conversion.id, vendor: "metrics-test", context: {} } });

    // a chat reply: the first back end fails, the second streams it (seen streaming meanwhile), and it is charged
    const conversation = await newConversation(s, u.token);
    working.setRespond((b) => ({ ...(defaultBehaviour(b) as { kind: "stream"; text: string }), tokenDelayMs: 150 }));
    const replying = chatCall(s.url, "/api/RoleChat/chat", u.token, { conversation_id: conversation.id, content: "Hello?" });
    // watched until the reply ends, not for a number of scrapes: how many fit before the first token depends on the machine
    let replied = false;
    void replying.finally(() => {
      replied = true;
    });
    let streaming = 0;
    while (!streaming && !replied) streaming = sampled(await scrape(), METRIC.chatStreaming);
    expect(streaming).toBe(1);
    expect((await replying).status).toBe(200);

    // a generation: queued before any worker runs, then rendered
    const image = await s.http
      .post("/api/ImageUpload/upload")
      .set("token", u.token)
      .attach("file", await photo(640, 480), "p.jpg")
      .field("consent", "1")
      .expect(200);
    const submitted = await s.http
      .post("/api/Generation/picVideoSubmit")
      .set("token", u.token)
      .send({ image_id: image.body.data.id, resolution: "480P", duration: 4 })
      .expect(200);
    const queued = await scrape();
    expect(sampled(queued, METRIC.queueJobs, { state: "queued" })).toBe(sampled(before, METRIC.queueJobs, { state: "queued" }) + 1);
    expect(sampled(queued, METRIC.queueOldest, { state: "queued" })).toBeGreaterThan(0);
    const worker = await startWorkerFor(s);
    try {
      expect((await waitForTask(s, submitted.body.data.id, 60_000)).status).toBe("succeeded");
    } finally {
      await worker.stop();
    }

    const after = await scrape();
    const moved = (name: string, labels: Record<string, string> = {}) => sampled(after, name, labels) - sampled(before, name, labels);
    expect(moved(METRIC.httpDuration, { route: "/api/order/createOrderAndPay", method: "POST", status: "200" })).toBe(1);
    expect(moved(METRIC.httpDuration, { route: "/api/pay/webhook/:provider", status: "400" })).toBe(1);
    expect(after.get(METRIC.httpDuration)!.some((m) => /\d{2,}/.test(m.labels.route ?? ""))).toBe(false);
    expect(moved(METRIC.notifications, { provider: "sandbox", outcome: "applied" })).toBe(1);
    expect(moved(METRIC.notifications, { provider: "sandbox", outcome: "duplicate" })).toBe(1);
    expect(moved(METRIC.notifications, { provider: "sandbox", outcome: "refused" })).toBe(1);
    expect(moved(METRIC.ledger, { direction: "granted" })).toBeGreaterThanOrEqual(150);
    expect(moved(METRIC.ledger, { direction: "spent" })).toBe(s.config.CHAT_PRICE_STANDARD + submitted.body.data.cost);
    expect(moved(METRIC.chatErrors, { backend: "fake1" })).toBe(1);
    expect(sampled(after, METRIC.chatStreaming)).toBe(0);
    expect(moved(METRIC.jobs, { engine: "local", outcome: "succeeded" })).toBe(1);
    expect(moved(METRIC.renderSeconds, { engine: "local" })).toBe(1);
    expect(sampled(after, METRIC.queueJobs, { state: "queued" })).toBe(sampled(before, METRIC.queueJobs, { state: "queued" }));
    expect(moved(METRIC.outbox)).toBe(1);
    expect(sampled(after, METRIC.outboxOldest)).toBeGreaterThanOrEqual(0);
  }, 120_000);
});

describe("/admin/api/operations", () => {
  it("gives admins and support the same figures as JSON, and refuses other staff", async () => {
    for (const roles of [["admin"], ["support"]] as const) {
      const staff = await staffMember(s, [...roles]);
      const res = await s.http.get("/admin/api/operations").set("token", staff.token).expect(200);
      expect(Date.parse(res.body.at)).toBeGreaterThan(0);
      const names = new Set(res.body.series.map((x: { name: string }) => x.name));
      for (const name of [METRIC.queueJobs, METRIC.engineUp, METRIC.outbox, METRIC.chatStreaming, `${METRIC.httpDuration}_count`])
        expect(names.has(name), name).toBe(true);
    }
    for (const roles of [["marketer"], ["moderator"]] as const) {
      const staff = await staffMember(s, [...roles]);
      await s.http.get("/admin/api/operations").set("token", staff.token).expect(403);
    }
    await s.http.get("/admin/api/operations").expect(401);
  });
});
