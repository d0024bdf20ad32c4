import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BURSTS, send, setScene, type BurstCall, type Scene } from "../burst-routes.ts";
import { chatBackendsEnv } from "../chat-utils.ts";
import { startFakeOpenAi, type FakeOpenAi } from "../fixtures/fake-openai.ts";
import { startTestServer } from "../server-utils.ts";
import { staffMember } from "../staff-utils.ts";

/**
 * Issue 47 item 4: a number in a JSON body is a JSON number. `"amount":"10"`, `[10]`, `" 5 "` and `"1e3"` were charged
 * as tips (z.coerce). Every state-changing route of the app (the burst table's requests, so a route added later is
 * covered) and the console's money routes get each numeric field in those forms: each is a 400 that changes nothing.
 */
const LIMITED = [
  "EMAIL_PER_HOUR",
  "IP_PER_HOUR",
  "GENERATIONS_PER_HOUR",
  "REPORTS_PER_HOUR",
  "ORDERS_PER_HOUR",
  "CHAT_PER_HOUR",
  "SUPPORT_PER_HOUR",
  "CHARACTERS_PER_HOUR",
  "CONVERSATIONS_PER_HOUR",
  "DRAFTS_PER_HOUR",
  "AVATARS_PER_HOUR",
  "REQUESTS_PER_HOUR",
  "LIBRARY_ITEMS_PER_HOUR",
  "REPORTS_PER_ACCOUNT_PER_HOUR",
];
let s: Awaited<ReturnType<typeof startTestServer>>;
let chat: FakeOpenAi;
let scene: Scene;

beforeAll(async () => {
  chat = await startFakeOpenAi();
  // rate limits run before validation: these requests must reach it
  const limits = Object.fromEntries(LIMITED.map((name) => [`RATE_LIMIT_${name}`, "10000"]));
  s = await startTestServer({ CHAT_BACKENDS: chatBackendsEnv([chat]), LOG_LEVEL: "silent", ...limits });
  scene = await setScene(s.url, s);
}, 60_000);
afterAll(async () => {
  await s?.stop();
  await chat?.close();
});

/** The forms a client may send a number in that are no JSON number. */
const notNumbers = (n: number): unknown[] => [String(n), ` ${n} `, [n], `${n}e0`, "1e3", { value: n }];

/** Numeric fields the burst requests leave at their defaults, which charge or pay: each gets the bad forms too. */
const EXTRA: Record<string, Record<string, number>> = {
  "POST /api/Generation/picVideoSubmit": { duration: 5, seed: 7, strength: 0.5 },
  "POST /api/Generation/textVideoSubmit": { duration: 5 },
  "POST /api/Generation/imageBatchModel": { count: 2 },
  "POST /api/Generation/getDurationPoints": { count: 2 },
  "POST /api/Generation/followUpSubmit": { duration: 5 },
  "POST /api/order/createOrderAndPay": { quantity: 1 },
  "POST /api/OrderStripe/createCheckoutSession": { quantity: 1 },
  "POST /api/Subscribe/updatePage": { request_price: 100, membership_price: 50 },
};

/** Everything a request that moves credits or money leaves behind. */
async function state() {
  const [fan, creator] = await Promise.all([scene.fanId, scene.creatorId].map((id) => s.db.user.findUniqueOrThrow({ where: { id } })));
  return {
    points: [fan!.points, creator!.points],
    ledger: await s.db.ledgerEntry.count(),
    orders: await s.db.order.count(),
    tips: await s.db.creatorTip.count(),
    payouts: await s.db.creatorPayout.count(),
    messages: await s.db.message.count(),
    tasks: await s.db.generationTask.count(),
  };
}

function numericFields(route: string, body: Record<string, unknown>): [string, number][] {
  const own = Object.entries(body).flatMap(([k, v]): [string, number][] => (typeof v === "number" ? [[k, v]] : []));
  return [...own, ...Object.entries(EXTRA[route] ?? {})];
}

describe("a JSON body's numbers", () => {
  it("are refused as text, lists, exponent strings or objects on every state-changing route, and nothing changes", async () => {
    const before = await state();
    let tried = 0;
    for (const [route, make] of BURSTS) {
      const call: BurstCall = await make(scene);
      if (!call.body || call.file) continue;
      for (const [field, n] of numericFields(route, call.body as Record<string, unknown>))
        for (const bad of notNumbers(n)) {
          const res = await send(scene, route, { ...call, body: { ...call.body, [field]: bad } });
          expect({ route, field, bad, status: res.code ?? res.status }).toEqual({ route, field, bad, status: 400 });
          tried++;
        }
    }
    // the list of ids too: `["5"]` is no id
    const submit = await BURSTS.find(([r]) => r === "POST /api/Training/submit")![1](scene);
    const ids = (submit.body as { photo_ids: number[] }).photo_ids;
    for (const bad of [ids.map(String), ids.join(",")]) {
      const res = await send(scene, "POST /api/Training/submit", { ...submit, body: { ...submit.body, photo_ids: bad } });
      expect(res.code).toBe(400);
    }
    expect(tried).toBeGreaterThan(300);
    expect(await state()).toEqual(before);
  }, 180_000);

  it("are refused in the console's money routes too: a credit adjustment and a refund", async () => {
    const staff = await staffMember(s, ["admin"]);
    const before = await state();
    for (const bad of notNumbers(10)) {
      const adjust = await s.http
        .post(`/admin/api/users/${scene.fanId}/credits`)
        .set("token", staff.token)
        .send({ delta: bad, reason: "Goodwill after an outage" });
      expect(adjust.status, JSON.stringify(bad)).toBe(400);
      const refund = await s.http
        .post(`/admin/api/orders/${scene.orderId}/refund`)
        .set("token", staff.token)
        .send({ acknowledged_spent: bad, reason: "Asked for a refund" });
      expect(refund.status, JSON.stringify(bad)).toBe(400);
    }
    expect(await state()).toEqual(before);
  });
});
