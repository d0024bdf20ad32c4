import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { staffMember } from "../../../../tests/staff-utils.ts";

let t: TestApp;
const day = (daysAgo: number, hour = 12) => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - daysAgo, hour));
};
const ymd = (d: Date) => d.toISOString().slice(0, 10);

beforeAll(async () => {
  t = await createTestApp();
  const user = await t.db.user.create({ data: { loginType: "registered", createdAt: day(1) } });
  const product = await t.db.product.create({
    data: { code: "p", name: "P", credits: 1, prices: [{ currency: "USD", priceMinor: 100, salePriceMinor: null }] },
  });
  const order = (status: "paid" | "failed" | "pending", provider: string, minor: number, at: Date) =>
    t.db.order.create({
      data: {
        orderNo: `o${Math.random()}`,
        userId: user.id,
        productId: product.id,
        productName: product.name,
        amountMinor: minor,
        finalPriceMinor: minor,
        currency: "USD",
        credits: 1,
        status,
        provider,
        createdAt: at,
        paidAt: status === "paid" ? at : null,
        expiresAt: at,
      },
    });
  await order("paid", "stripe", 500, day(0, 1));
  await order("paid", "stripe", 700, day(0, 2));
  await order("paid", "paypal", 300, day(2));
  await order("failed", "stripe", 900, day(2));
  await order("pending", "stripe", 900, day(3));
  await order("paid", "stripe", 10_000, day(40));
  const task = (status: "succeeded" | "failed", mode: "image_to_video" | "text_to_image", at: Date) =>
    t.db.generationTask.create({ data: { userId: user.id, mode, engine: "local", status, cost: 1, input: {}, createdAt: at } });
  await task("succeeded", "image_to_video", day(0));
  await task("succeeded", "image_to_video", day(0));
  await task("failed", "text_to_image", day(1));
  await task("succeeded", "text_to_image", day(50));
  const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
  // creator figures: pages, follows and custom requests, one of each outside the window
  const creatorPage = (at: Date) => t.db.creatorPage.create({ data: { userId: user.id, homeLink: `dash-${Math.random()}`, title: "Dash", createdAt: at } });
  const page = await creatorPage(day(1));
  const fans = await Promise.all([0, 1, 2].map(() => t.db.user.create({ data: { loginType: "visitor", createdAt: day(100) } })));
  await t.db.subscription.create({ data: { creatorPageId: page.id, userId: fans[0].id, createdAt: day(0) } });
  await t.db.subscription.create({ data: { creatorPageId: page.id, userId: fans[1].id, createdAt: day(0), active: false } });
  await t.db.subscription.create({ data: { creatorPageId: page.id, userId: fans[2].id, createdAt: day(45) } });
  const customRequest = (price: number, at: Date, status: "pending" | "delivered") =>
    t.db.customRequest.create({
      data: { creatorPageId: page.id, fanUserId: fans[0].id, text: "x", price, status, idempotencyKey: `k${Math.random()}`, createdAt: at, expiresAt: at },
    });
  await customRequest(30, day(2), "delivered");
  await customRequest(50, day(2), "pending");
  await customRequest(70, day(60), "delivered");
  // activity (issue 32 item 8): likes, a remix, a tip, check-ins and referrals, one of each kind outside the window
  const shared = await t.db.generationTask.create({
    data: { userId: user.id, mode: "text_to_image", engine: "local", status: "succeeded", cost: 1, input: {}, isPublic: true, createdAt: day(100) },
  });
  await t.db.galleryLike.createMany({
    data: [
      { taskId: shared.id, userId: fans[0].id, createdAt: day(0) },
      { taskId: shared.id, userId: fans[1].id, createdAt: day(0) },
      { taskId: shared.id, userId: fans[2].id, createdAt: day(40) },
    ],
  });
  await t.db.generationTask.create({
    data: { userId: fans[0].id, mode: "text_to_image", engine: "local", status: "failed", cost: 1, input: {}, remixOfId: shared.id, createdAt: day(1) },
  });
  const tip = (at: Date) =>
    t.db.creatorTip.create({ data: { creatorPageId: page.id, fanUserId: fans[0].id, amount: 5, idempotencyKey: `tip-${Math.random()}`, createdAt: at } });
  await tip(day(2));
  await tip(day(90));
  // paid messages: one unlocked two days ago, one older than the window, one never unlocked
  const thread = await t.db.messageThread.create({ data: { creatorPageId: page.id, fanUserId: fans[0].id } });
  await t.db.message.createMany({
    data: [day(2), day(90), null].map((unlockedAt, i) => ({
      threadId: thread.id,
      sender: "creator",
      body: "x",
      price: 5,
      unlockedAt,
      idempotencyKey: `m${i}`,
    })),
  });
  await t.db.checkIn.createMany({
    data: [
      { userId: fans[0].id, localDate: day(1), credits: 2, createdAt: day(1) },
      { userId: fans[1].id, localDate: day(1), credits: 2, createdAt: day(1) },
      { userId: fans[2].id, localDate: day(70), credits: 2, createdAt: day(70) },
    ],
  });
  await t.db.referral.create({ data: { inviterId: user.id, inviteeId: fans[0].id, status: "paid", inviterCredits: 5, inviteeCredits: 5, decidedAt: day(0) } });
  await t.db.referral.create({ data: { inviterId: user.id, inviteeId: fans[1].id, status: "refused", refusal: "self", decidedAt: day(0) } });
  await t.db.report.createMany({
    data: [
      { targetType: "task", targetId: 1, reason: "underage", createdAt: hoursAgo(0.1) },
      { targetType: "task", targetId: 1, reason: "other", createdAt: hoursAgo(5) },
      { targetType: "task", targetId: 1, reason: "other", createdAt: hoursAgo(50) },
      { targetType: "task", targetId: 1, reason: "other", createdAt: hoursAgo(500) },
      { targetType: "task", targetId: 1, reason: "other", status: "dismissed" },
    ],
  });
});
afterAll(() => t.close());

describe("GET /admin/api/dashboard", () => {
  it("aggregates revenue, orders, generations, sign-ups and the report backlog over the window", async () => {
    const support = await staffMember(t, ["support"]);
    await visitor(t);
    const res = await t.http.get("/admin/api/dashboard?days=30").set("token", support.token).expect(200);
    const d = res.body;
    expect(d.revenue).toEqual([
      { day: ymd(day(2)), provider: "paypal", currency: "USD", amountMinor: 300, orders: 1 },
      { day: ymd(day(0)), provider: "stripe", currency: "USD", amountMinor: 1200, orders: 2 },
    ]);
    expect(d.ordersByStatus).toEqual([
      { status: "failed", count: 1 },
      { status: "paid", count: 3 },
      { status: "pending", count: 1 },
    ]);
    expect(d.generations).toEqual([
      // the remix below is one of them
      { day: ymd(day(1)), status: "failed", mode: "text_to_image", count: 2 },
      { day: ymd(day(0)), status: "succeeded", mode: "image_to_video", count: 2 },
    ]);
    expect(d.signups).toEqual(
      expect.arrayContaining([
        { day: ymd(day(1)), loginType: "registered", count: 1 },
        { day: ymd(day(0)), loginType: "visitor", count: 1 },
      ]),
    );
    const backlog = Object.fromEntries(d.openReports.map((r: { bucket: string; reason: string; count: number }) => [`${r.bucket}/${r.reason}`, r.count]));
    expect(backlog).toEqual({ "under_1h/underage": 1, "1h_24h/other": 1, "1d_7d/other": 1, "over_7d/other": 1 });
    expect(d.creators).toEqual({
      newPages: [{ day: ymd(day(1)), count: 1 }],
      requests: [{ day: ymd(day(2)), count: 2, credits: 80 }],
    });
    // one series per line of the registry (server/src/dashboard-activity.ts), each counted by the domain owning the rows
    expect(d.activitySeries).toEqual(["likes", "remixes", "checkIns", "referrals", "tips", "follows", "unlocks", "chatMedia", "chatMediaCredits"]);
    expect(d.activity).toEqual([
      { series: "likes", day: ymd(day(0)), count: 2 },
      { series: "remixes", day: ymd(day(1)), count: 1 },
      { series: "checkIns", day: ymd(day(1)), count: 2 },
      // a refused referral gave nothing: only rewarded ones count, as on the gifts page
      { series: "referrals", day: ymd(day(0)), count: 1 },
      { series: "tips", day: ymd(day(2)), count: 1 },
      { series: "follows", day: ymd(day(0)), count: 2 },
      { series: "unlocks", day: ymd(day(2)), count: 1 },
    ]);
  });

  it("is for staff; days is checked", async () => {
    await t.http.get("/admin/api/dashboard").expect(401);
    const admin = await staffMember(t, ["admin"]);
    expect((await t.http.get("/admin/api/dashboard?days=0").set("token", admin.token).expect(400)).body.msg).toBe("days must be 1 to 365");
    const year = await t.http.get("/admin/api/dashboard?days=365").set("token", admin.token).expect(200);
    expect(year.body.revenue.reduce((s: number, r: { amountMinor: number }) => s + r.amountMinor, 0)).toBe(11_500);
  });
});
