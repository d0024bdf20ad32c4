import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, silentLog, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { startFakeConversionApis } from "../../../../tests/fixtures/fake-conversion-apis.ts";
import { staffMember } from "../../../../tests/staff-utils.ts";
import { purchaseEventId } from "../../contract/pixels.ts";
import { signNotification } from "../payments/providers/signature.ts";
import { seedProducts } from "../products/products.seed.ts";
import { createChannelSecrets } from "./channel-secrets.ts";
import { createConversionsService } from "./conversions.service.ts";

const SECRET = "sandbox-test-secret-0123456789";
const KEY = crypto.randomBytes(32).toString("hex");
const creds = {
  metaToken: "EAAG-meta-token",
  tiktokToken: "tt-access-token",
  google: { clientId: "gid", clientSecret: "gsecret", refreshToken: "1//refresh", developerToken: "dev-token" },
};
/** What the console keeps in the channel row; the tokens go to the secret store (docs/decisions/191). */
const IDS = {
  meta: { pixelId: "123456789" },
  tiktok: { pixelCode: "CABC123" },
  google_ads: { customerId: "1234567890", conversionActionId: "987", clientId: creds.google.clientId },
};
const TOKENS = [
  { vendor: "meta", field: "accessToken", value: creds.metaToken },
  { vendor: "tiktok", field: "accessToken", value: creds.tiktokToken },
  { vendor: "google_ads", field: "developerToken", value: creds.google.developerToken },
  { vendor: "google_ads", field: "clientSecret", value: creds.google.clientSecret },
  { vendor: "google_ads", field: "refreshToken", value: creds.google.refreshToken },
];
const CONSENTED = { necessary: 1, analytics: 1, advertising: 1 };
const CLICKS = {
  fbclid: "IwAR-click",
  ttclid: "E.C.P.tt-click",
  gclid: "Cj0-gclid",
  device_id: "device-abc",
  fbp: "fb.1.1700000000000.42",
  page_url: "http://localhost/payment",
};

let t: TestApp;
let fake: Awaited<ReturnType<typeof startFakeConversionApis>>;
let productId: number;

beforeAll(async () => {
  fake = await startFakeConversionApis(creds);
  t = await createTestApp({
    SANDBOX_WEBHOOK_SECRET: SECRET,
    CONVERSION_RETRY_BASE_SECONDS: "0.05",
    CONVERSION_RETRY_LIMIT: "3",
    SECRETS_KEY: KEY,
    ...fake.config,
  });
  await seedProducts(t.db);
  productId = (await t.db.product.findFirstOrThrow({ where: { code: "credits_150" } })).id;
  await t.db.channel.create({ data: { code: "default", name: "Direct" } });
  const promo = await t.db.channel.create({ data: { code: "promo", name: "Promo", serverConversions: IDS } });
  const admin = await staffMember(t, ["admin"]);
  for (const token of TOKENS) await t.http.post(`/admin/api/channels/${promo.id}/secrets`).set("token", admin.token).send(token).expect(200);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

/** A guest of `channel` checks out (reporting consent and click ids like the app does) and the sandbox reports it paid. */
async function checkout(channel: string, consent: Record<string, number> | null = CONSENTED) {
  const { token, userId } = await visitor(t, { "channel-id": channel });
  const created = (
    await t.http.post("/api/order/createOrderAndPay").set("token", token).send({ product_id: productId, provider: "sandbox", agree_terms: true }).expect(200)
  ).body.data;
  if (consent) {
    await t.http
      .post("/api/pixelcollect/add")
      .set("token", token)
      .set("channel-id", channel)
      .set("user-agent", "Mozilla/5.0 test")
      .send({ event: "payment_add", order_id: created.order_id, consent, context: CLICKS })
      .expect(200);
  }
  return { token, userId, ...(created as { order_id: number; order_no: string; session_id: string }) };
}

async function notifyPaid(o: { session_id: string; order_no: string; order_id: number }) {
  const order = await t.db.order.findUniqueOrThrow({ where: { id: o.order_id } });
  const body = JSON.stringify({
    id: `sbevt_${crypto.randomBytes(6).toString("hex")}`,
    type: "payment.succeeded",
    created: Math.floor(Date.now() / 1000),
    data: { session_id: o.session_id, order_no: o.order_no, amount: order.finalPriceMinor, currency: order.currency, status: "succeeded" },
  });
  await t.http
    .post("/api/pay/webhook/sandbox")
    .set("content-type", "application/json")
    .set("sandbox-signature", signNotification(SECRET, body))
    .send(body)
    .expect(200);
}

/** Runs delivery rounds (two at a time, as two API processes would) until nothing is pending. */
async function drain() {
  for (let i = 0; i < 100; i++) {
    await Promise.all([t.services.conversions.deliverDue(), t.services.conversions.deliverDue()]);
    if ((await t.db.conversionDelivery.count({ where: { status: "pending" } })) === 0) return;
    await new Promise((r) => setTimeout(r, 60));
  }
  throw new Error("deliveries still pending");
}

const sentFor = (vendor: string, orderId: number) =>
  fake.received.filter((r) => r.vendor === vendor && JSON.stringify(r.body).includes(`"${purchaseEventId(orderId)}"`));
const countedFor = (vendor: string, orderId: number) => fake.counted.filter((c) => c.vendor === vendor && c.eventId === purchaseEventId(orderId));

const VENDOR_URL = { meta: "META_CAPI_URL", tiktok: "TIKTOK_EVENTS_URL", google_ads: "GOOGLE_ADS_API_URL" } as const;

/**
 * A second API process that dies right after `vendor` accepted a conversion: the vendor's answer arrives, and
 * the process never gets to mark the row sent (its promise never settles, as if the process had exited).
 */
function processDyingAfter(vendor: keyof typeof VENDOR_URL) {
  const url = fake.config[VENDOR_URL[vendor]];
  return createConversionsService({
    db: t.db,
    config: t.config,
    log: silentLog,
    secrets: createChannelSecrets(t.db, t.services.audit, KEY),
    http: async (target, init) => {
      const res = await fetch(target, init);
      if (!target.startsWith(url)) return res;
      await res.text();
      return new Promise<Response>(() => undefined);
    },
  });
}

async function until(check: () => boolean, what: string) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

describe("server-side purchase conversions", () => {
  it("a paid order sends exactly one conversion per configured vendor, with the browser's event id, through a failing endpoint", async () => {
    const o = await checkout("promo");
    fake.failNext("meta", 2);
    // the provider notifies twice (different event ids): still one conversion
    await Promise.all([notifyPaid(o), notifyPaid(o)]);
    expect(await t.db.purchaseConversion.count({ where: { orderId: o.order_id } })).toBe(1);
    await drain();

    const eventId = purchaseEventId(o.order_id);
    const meta = sentFor("meta", o.order_id);
    expect(meta).toHaveLength(1);
    expect(fake.attempts.meta).toBe(3);
    expect(meta[0].path).toBe("/meta/v21.0/123456789/events");
    expect(meta[0].body.data[0]).toMatchObject({
      event_name: "Purchase",
      event_id: eventId,
      action_source: "website",
      user_data: { client_user_agent: "Mozilla/5.0 test", fbp: CLICKS.fbp, external_id: [crypto.createHash("sha256").update(CLICKS.device_id).digest("hex")] },
      custom_data: { currency: "USD" },
    });
    expect(meta[0].body.data[0].user_data.fbc).toMatch(/^fb\.1\.\d+\.IwAR-click$/);

    const tiktok = sentFor("tiktok", o.order_id);
    expect(tiktok).toHaveLength(1);
    expect(tiktok[0].body).toMatchObject({
      event_source: "web",
      event_source_id: "CABC123",
      data: [{ event: "CompletePayment", event_id: eventId, user: { ttclid: CLICKS.ttclid } }],
    });

    const google = sentFor("google_ads", o.order_id);
    expect(google).toHaveLength(1);
    expect(google[0].body.conversions[0]).toMatchObject({
      gclid: CLICKS.gclid,
      conversionAction: "customers/1234567890/conversionActions/987",
      orderId: eventId,
    });
    expect(google[0].body.conversions[0].conversionDateTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\+00:00$/);

    const rows = await t.db.conversionDelivery.findMany({ where: { conversion: { orderId: o.order_id } }, orderBy: { vendor: "asc" } });
    expect(rows.map((r) => [r.vendor, r.status, r.attempts])).toEqual([
      ["google_ads", "sent", 1],
      ["meta", "sent", 3],
      ["tiktok", "sent", 1],
    ]);
    // later rounds never send a delivered conversion again
    await t.services.conversions.deliverDue(new Date(Date.now() + 86_400_000));
    expect(sentFor("meta", o.order_id)).toHaveLength(1);
  });

  it("the vendor fakes drop a second copy of an event id as the vendors document; another id counts", async () => {
    const o = await checkout("promo");
    await notifyPaid(o);
    await drain();
    const eventId = purchaseEventId(o.order_id);
    const before = fake.received.length;
    // the same requests again, as a resend would make them
    const meta = sentFor("meta", o.order_id)[0];
    await fetch(`${fake.url}${meta.path}?access_token=${creds.metaToken}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(meta.body),
    }).then((r) => expect(r.status).toBe(200));
    const tiktok = sentFor("tiktok", o.order_id)[0];
    await fetch(fake.config.TIKTOK_EVENTS_URL, {
      method: "POST",
      headers: { "content-type": "application/json", "access-token": creds.tiktokToken },
      body: JSON.stringify(tiktok.body),
    }).then(async (r) => expect((await r.json()).code).toBe(0));
    const google = sentFor("google_ads", o.order_id)[0];
    const token = (
      await (
        await fetch(fake.config.GOOGLE_TOKEN_URL, {
          method: "POST",
          body: new URLSearchParams({
            grant_type: "refresh_token",
            client_id: creds.google.clientId,
            client_secret: creds.google.clientSecret,
            refresh_token: creds.google.refreshToken,
          }),
        })
      ).json()
    ).access_token;
    const again = await (
      await fetch(`${fake.url}${google.path}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}`, "developer-token": creds.google.developerToken },
        body: JSON.stringify(google.body),
      })
    ).json();
    expect(again.partialFailureError.details[0].errors[0].errorCode).toEqual({ conversionUploadError: "ORDER_ID_ALREADY_IN_USE" });
    expect(fake.received.length).toBe(before + 3);
    for (const vendor of ["meta", "tiktok", "google_ads"]) {
      expect(sentFor(vendor, o.order_id).length, vendor).toBe(2);
      expect(countedFor(vendor, o.order_id), vendor).toEqual([{ vendor, eventId }]);
    }
    // a different event id is a different purchase
    const other = { ...meta.body, data: [{ ...meta.body.data[0], event_id: "purchase_other" }] };
    await fetch(`${fake.url}${meta.path}?access_token=${creds.metaToken}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(other),
    });
    expect(fake.counted.filter((c) => c.eventId === "purchase_other")).toHaveLength(1);
  });

  for (const vendor of ["meta", "tiktok", "google_ads"] as const) {
    it(`a crash after ${vendor} accepted and before the row was marked sent: the next process resends with the same event id, and ${vendor} counts it once`, async () => {
      const o = await checkout("promo");
      await notifyPaid(o);
      const eventId = purchaseEventId(o.order_id);
      // the dying process claims every due row and dies after this vendor's answer
      void processDyingAfter(vendor).deliverDue();
      await until(() => sentFor(vendor, o.order_id).length === 1, `${vendor} to receive the purchase`);
      await new Promise((r) => setTimeout(r, 200));
      const stuck = await t.db.conversionDelivery.findFirstOrThrow({ where: { vendor, conversion: { orderId: o.order_id } } });
      expect(stuck).toMatchObject({ status: "pending", attempts: 1, sentAt: null });
      expect(stuck.nextAttemptAt.getTime()).toBeGreaterThan(Date.now()); // leased to the dead process

      // another process, once the lease has run out
      const afterLease = new Date(stuck.nextAttemptAt.getTime() + 1000);
      await t.services.conversions.deliverDue(afterLease);
      const rows = await t.db.conversionDelivery.findMany({ where: { conversion: { orderId: o.order_id } } });
      expect(rows.map((r) => r.status)).toEqual(["sent", "sent", "sent"]);
      expect(rows.find((r) => r.vendor === vendor)).toMatchObject({ status: "sent", attempts: 2, lastError: null });

      const copies = sentFor(vendor, o.order_id);
      expect(copies).toHaveLength(2);
      const ids = copies.map((c) => (vendor === "google_ads" ? c.body.conversions[0].orderId : c.body.data[0].event_id));
      expect(ids).toEqual([eventId, eventId]);
      expect(countedFor(vendor, o.order_id)).toEqual([{ vendor, eventId }]);
      // the vendors the dead process never reached got it once
      for (const v of (["meta", "tiktok", "google_ads"] as const).filter((x) => x !== vendor)) expect(countedFor(v, o.order_id), v).toHaveLength(1);
    });
  }

  it("gives up after the retry limit and says why", async () => {
    const o = await checkout("promo");
    fake.failNext("tiktok", 100);
    await notifyPaid(o);
    await drain();
    const row = await t.db.conversionDelivery.findFirstOrThrow({ where: { vendor: "tiktok", conversion: { orderId: o.order_id } } });
    expect(row).toMatchObject({ status: "failed", attempts: 4 });
    expect(row.lastError).toContain("TikTok answered 503");
    fake.failNext("tiktok", 0);
    expect(sentFor("meta", o.order_id)).toHaveLength(1);
  });

  it("sends nothing without advertising consent, or for a channel without credentials; the purchase is still recorded once", async () => {
    const rejected = await checkout("promo", { necessary: 1, analytics: 0, advertising: 0 });
    const silent = await checkout("promo", null);
    const plain = await checkout("default");
    for (const o of [rejected, silent, plain]) await notifyPaid(o);
    await drain();
    for (const o of [rejected, silent, plain]) {
      expect(await t.db.purchaseConversion.findUniqueOrThrow({ where: { orderId: o.order_id } })).toMatchObject({ eventId: purchaseEventId(o.order_id) });
      expect(await t.db.conversionDelivery.count({ where: { conversion: { orderId: o.order_id } } })).toBe(0);
      expect(fake.received.some((r) => JSON.stringify(r.body).includes(`"${purchaseEventId(o.order_id)}"`))).toBe(false);
    }
    expect((await t.db.purchaseConversion.findUniqueOrThrow({ where: { orderId: rejected.order_id } })).advertisingConsent).toBe(false);
  });

  it("another user's checkout report cannot attach click ids to my order", async () => {
    const mine = await checkout("promo", null);
    const other = await visitor(t, { "channel-id": "promo" });
    await t.http
      .post("/api/pixelcollect/add")
      .set("token", other.token)
      .send({ event: "payment_add", order_id: mine.order_id, consent: CONSENTED, context: CLICKS })
      .expect(200);
    await notifyPaid(mine);
    expect(await t.db.conversionDelivery.count({ where: { conversion: { orderId: mine.order_id } } })).toBe(0);
  });

  it("marketers set the ids per channel in the console (admins the tokens); half-filled ids are refused, empty ones switch a vendor off", async () => {
    const marketer = await staffMember(t, ["marketer"]);
    const promo = await t.db.channel.findUniqueOrThrow({ where: { code: "promo" } });
    const bad = await t.http
      .put(`/admin/api/channels/${promo.id}`)
      .set("token", marketer.token)
      .send({ serverConversions: { ...IDS, google_ads: { ...IDS.google_ads, customerId: "12-34" } } })
      .expect(400);
    expect(bad.body.msg).toContain("digits only");
    await t.http
      .put(`/admin/api/channels/${promo.id}`)
      .set("token", marketer.token)
      .send({ serverConversions: { ...IDS, tiktok: { pixelCode: "" } } })
      .expect(200);
    expect((await t.db.channel.findUniqueOrThrow({ where: { id: promo.id } })).serverConversions).toMatchObject({ meta: IDS.meta, tiktok: null });
    await t.http.put(`/admin/api/channels/${promo.id}`).set("token", marketer.token).send({ serverConversions: null }).expect(200);
    expect((await t.db.channel.findUniqueOrThrow({ where: { id: promo.id } })).serverConversions).toBeNull();
    await t.http.put(`/admin/api/channels/${promo.id}`).set("token", marketer.token).send({ serverConversions: IDS }).expect(200);
    // the tokens were never part of the channel row, nor of its audit entries
    const entries = await t.db.auditLog.findMany({ where: { resource: "Channel", resourceId: String(promo.id) } });
    expect(JSON.stringify(entries)).not.toContain(creds.metaToken);
    expect(JSON.stringify(entries)).not.toContain(creds.google.refreshToken);
  });
});
