import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StaffRole } from "../db/generated/enums.ts";
import { createTestApp, visitor, type TestApp } from "../../../tests/db-utils.ts";
import { staffMember, type StaffLogin } from "../../../tests/staff-utils.ts";

let t: TestApp;
const as: Partial<Record<StaffRole, StaffLogin>> = {};
let channelId: number;
let userId: number;
let orderId: number;

beforeAll(async () => {
  t = await createTestApp();
  for (const role of ["admin", "support", "marketer", "moderator"] as const) as[role] = await staffMember(t, [role]);
  const channel = await t.db.channel.create({ data: { code: "ads", name: "Ads" } });
  channelId = channel.id;
  userId = (await visitor(t)).userId;
  const product = await t.db.product.create({
    data: { code: "p1", name: "P1", credits: 10, prices: [{ currency: "USD", priceMinor: 100, salePriceMinor: null }] },
  });
  const order = await t.db.order.create({
    data: {
      orderNo: "O1",
      userId,
      productId: product.id,
      productName: product.name,
      amountMinor: 100,
      finalPriceMinor: 100,
      currency: "USD",
      credits: 10,
      provider: "sandbox",
      expiresAt: new Date(Date.now() + 60_000),
    },
  });
  orderId = order.id;
  await t.db.paymentEvent.create({ data: { provider: "sandbox", eventId: "evt1", type: "payment.succeeded", orderId, payload: { ok: true } } });
  await t.db.ledgerEntry.create({ data: { userId, delta: 5, balanceAfter: 5, reason: "test", idempotencyKey: "seed-ledger" } });
  const task = await t.db.generationTask.create({ data: { userId, mode: "text_to_image", engine: "local", cost: 1, input: { prompt: "x" } } });
  await t.db.report.create({ data: { targetType: "task", targetId: task.id, targetUserId: userId, reason: "other" } });
  await t.db.ban.create({ data: { userId, reason: "seed", liftedAt: new Date() } });
  await t.db.outboxEmail.create({ data: { to: "a@b.c", subject: "s", body: "b" } });
  await t.db.auditLog.create({ data: { action: "seed", resource: "seed" } });
}, 60_000);
afterAll(() => t.close());

const token = (role: StaffRole) => as[role]!.token;

interface Editable {
  name: string;
  /** What the audit log calls it. */
  model: string;
  may: StaffRole;
  mayNot: StaffRole;
  create: () => Record<string, unknown>;
  update: Record<string, unknown>;
  remove: boolean;
}

const editable: Editable[] = [
  {
    name: "templates",
    model: "Template",
    may: "marketer",
    mayNot: "support",
    create: () => ({
      name: "Golden hour",
      category: "Portrait",
      suitFor: "image_to_video",
      mode: "image_to_video",
      engineParams: { motion: "pan" },
      creditPrice: 2,
    }),
    update: { creditPrice: 3, enabled: false },
    remove: true,
  },
  {
    name: "channels",
    model: "Channel",
    may: "marketer",
    mayNot: "moderator",
    create: () => ({ code: `c${Date.now()}`, name: "Promo" }),
    update: { tiktok: 0 },
    remove: true,
  },
  {
    name: "pixel-ids",
    model: "PixelId",
    may: "marketer",
    mayNot: "support",
    create: () => ({ channelId, kind: 2, value: "TT-PIXEL-1" }),
    update: { value: "TT-PIXEL-2" },
    remove: true,
  },
  {
    name: "banners",
    model: "Banner",
    may: "marketer",
    mayNot: "moderator",
    create: () => ({ title: "Sale", imageUrl: "/b.webp" }),
    update: { enabled: false },
    remove: true,
  },
  {
    name: "prompt-suggestions",
    model: "PromptSuggestion",
    may: "marketer",
    mayNot: "support",
    create: () => ({ text: "A beach at dawn" }),
    update: { sortOrder: 5 },
    remove: true,
  },
  {
    name: "site-settings",
    model: "SiteSetting",
    may: "marketer",
    mayNot: "moderator",
    create: () => ({ key: `siteConfig${Date.now()}`, value: { theme: "dark" } }),
    update: { value: '{"theme":"light"}' },
    remove: true,
  },
  {
    name: "staff",
    model: "Staff",
    may: "admin",
    mayNot: "marketer",
    create: () => ({ username: `new-${Date.now()}`, roles: ["support"] }),
    update: { roles: ["support", "moderator"] },
    remove: false,
  },
];

describe.each(editable)("$name", (r) => {
  it(`${r.may} may list, get, create, update${r.remove ? ", delete" : ""}; every change is audited`, async () => {
    const created = await t.http.post(`/admin/api/${r.name}`).set("token", token(r.may)).send(r.create()).expect(200);
    const id = created.body.id;
    expect(id).toBeDefined();
    const list = await t.http.get(`/admin/api/${r.name}`).query({ sort: '["id","ASC"]', range: "[0,99]", filter: "{}" }).set("token", token(r.may)).expect(200);
    expect(list.headers["content-range"]).toMatch(new RegExp(`^${r.name} 0-\\d+/\\d+$`));
    expect(list.headers["access-control-expose-headers"]).toContain("Content-Range");
    expect(list.body.map((x: { id: unknown }) => x.id)).toContain(id);
    await t.http
      .get(`/admin/api/${r.name}/${encodeURIComponent(id)}`)
      .set("token", token(r.may))
      .expect(200);
    const updated = await t.http
      .put(`/admin/api/${r.name}/${encodeURIComponent(id)}`)
      .set("token", token(r.may))
      .send({ ...created.body, ...r.update })
      .expect(200);
    for (const [k, v] of Object.entries(r.update)) expect(updated.body[k]).toEqual(r.name === "site-settings" ? JSON.parse(v as string) : v);

    const audit = await t.db.auditLog.findMany({ where: { resource: r.model, resourceId: String(id) }, orderBy: { id: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["create", "update"]);
    expect(audit[1]).toMatchObject({ staffId: as[r.may]!.staffId });
    expect(audit[1].before).not.toEqual(audit[1].after);
    expect(audit[0].after).not.toHaveProperty("passwordHash");

    if (r.remove) {
      await t.http
        .delete(`/admin/api/${r.name}/${encodeURIComponent(id)}`)
        .set("token", token(r.may))
        .expect(200);
      await t.http
        .get(`/admin/api/${r.name}/${encodeURIComponent(id)}`)
        .set("token", token(r.may))
        .expect(404);
      const last = await t.db.auditLog.findFirstOrThrow({ where: { resource: r.model, resourceId: String(id) }, orderBy: { id: "desc" } });
      expect(last).toMatchObject({ action: "delete", after: null });
      expect(JSON.stringify(last.before)).toContain(JSON.stringify(id));
    }
  });

  it(`${r.mayNot} gets 403 for every call and changes nothing`, async () => {
    const created = await t.http.post(`/admin/api/${r.name}`).set("token", token(r.may)).send(r.create()).expect(200);
    const id = encodeURIComponent(created.body.id);
    const before = await t.db.auditLog.count();
    await t.http.get(`/admin/api/${r.name}`).set("token", token(r.mayNot)).expect(403);
    await t.http.get(`/admin/api/${r.name}/${id}`).set("token", token(r.mayNot)).expect(403);
    await t.http.post(`/admin/api/${r.name}`).set("token", token(r.mayNot)).send(r.create()).expect(403);
    const put = await t.http.put(`/admin/api/${r.name}/${id}`).set("token", token(r.mayNot)).send(r.update).expect(403);
    expect(put.body).toEqual({ code: 403, msg: "There is no permission for the current operation", data: null });
    await t.http
      .delete(`/admin/api/${r.name}/${id}`)
      .set("token", token(r.mayNot))
      .expect(r.remove ? 403 : 404);
    expect(await t.db.auditLog.count()).toBe(before);
  });
});

const readOnly: { name: string; may: StaffRole; mayNot: StaffRole; id: () => number | Promise<number> }[] = [
  { name: "users", may: "support", mayNot: "marketer", id: () => userId },
  { name: "orders", may: "marketer", mayNot: "moderator", id: () => orderId },
  { name: "payment-events", may: "support", mayNot: "moderator", id: async () => (await t.db.paymentEvent.findFirstOrThrow()).id },
  {
    name: "memberships",
    may: "support",
    mayNot: "moderator",
    id: async () => (await t.db.membership.create({ data: { userId, orderId, provider: "stripe", providerRef: "sub_seed", creditsPerPeriod: 10 } })).id,
  },
  { name: "ledger", may: "support", mayNot: "marketer", id: async () => (await t.db.ledgerEntry.findFirstOrThrow()).id },
  { name: "generation-tasks", may: "moderator", mayNot: "marketer", id: async () => (await t.db.generationTask.findFirstOrThrow()).id },
  { name: "reports", may: "moderator", mayNot: "support", id: async () => (await t.db.report.findFirstOrThrow()).id },
  { name: "bans", may: "moderator", mayNot: "support", id: async () => (await t.db.ban.findFirstOrThrow()).id },
  { name: "audit-log", may: "admin", mayNot: "moderator", id: async () => (await t.db.auditLog.findFirstOrThrow()).id },
  { name: "outbox", may: "support", mayNot: "moderator", id: async () => (await t.db.outboxEmail.findFirstOrThrow()).id },
];

describe.each(readOnly)("$name (read-only)", (r) => {
  it(`${r.may} may list and get; nobody may create, change or delete; ${r.mayNot} gets 403`, async () => {
    const id = await r.id();
    const list = await t.http.get(`/admin/api/${r.name}`).query({ range: "[0,9]" }).set("token", token(r.may)).expect(200);
    expect(list.headers["content-range"]).toMatch(new RegExp(`^${r.name} 0-\\d+/\\d+$`));
    await t.http.get(`/admin/api/${r.name}/${id}`).set("token", token(r.may)).expect(200);
    await t.http.get(`/admin/api/${r.name}/999999`).set("token", token(r.may)).expect(404);
    await t.http.post(`/admin/api/${r.name}`).set("token", token("admin")).send({}).expect(404);
    await t.http.put(`/admin/api/${r.name}/${id}`).set("token", token("admin")).send({}).expect(404);
    await t.http.delete(`/admin/api/${r.name}/${id}`).set("token", token("admin")).expect(404);
    await t.http.get(`/admin/api/${r.name}`).set("token", token(r.mayNot)).expect(403);
    await t.http.get(`/admin/api/${r.name}/${id}`).set("token", token(r.mayNot)).expect(403);
  });
});

describe("ra-data-simple-rest list contract", () => {
  beforeAll(async () => {
    await t.db.template.createMany({
      data: Array.from({ length: 30 }, (_, i) => ({
        name: `Paged ${String(i).padStart(2, "0")}`,
        category: i % 3 === 0 ? "Creative" : "Lifestyle",
        suitFor: "paging",
        mode: "text_to_image" as const,
        engineParams: {},
        creditPrice: i,
        sortOrder: i,
      })),
    });
  });
  const page = (range: string, filter = '{"suitFor":"paging"}', sort = '["creditPrice","ASC"]') =>
    t.http.get("/admin/api/templates").query({ sort, range, filter }).set("token", token("marketer"));

  it("answers the requested slice with Content-Range <resource> <from>-<to>/<total>", async () => {
    const first = await page("[0,9]").expect(200);
    expect(first.headers["content-range"]).toBe("templates 0-9/30");
    expect(first.body.map((x: { creditPrice: number }) => x.creditPrice)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const second = await page("[10,19]").expect(200);
    expect(second.headers["content-range"]).toBe("templates 10-19/30");
    expect(second.body[0].creditPrice).toBe(10);
    const last = await page("[25,34]").expect(200);
    expect(last.headers["content-range"]).toBe("templates 25-29/30");
    expect(last.body).toHaveLength(5);
    const desc = await page("[0,0]", undefined, '["creditPrice","DESC"]').expect(200);
    expect(desc.body[0].creditPrice).toBe(29);
  });

  it("counts under the filter, and answers */0 when nothing matches", async () => {
    const creative = await page("[0,4]", '{"suitFor":"paging","category":"Creative"}').expect(200);
    expect(creative.headers["content-range"]).toBe("templates 0-4/10");
    const none = await page("[0,9]", '{"suitFor":"paging","q":"no such name"}').expect(200);
    expect(none.headers["content-range"]).toBe("templates */0");
    expect(none.body).toEqual([]);
    const many = await t.http
      .get("/admin/api/templates")
      .query({ filter: JSON.stringify({ id: creative.body.slice(0, 2).map((x: { id: number }) => x.id) }) })
      .set("token", token("marketer"))
      .expect(200);
    expect(many.body).toHaveLength(2);
  });

  it("refuses bad sort, range and filter with a clear 400", async () => {
    expect((await page("[0,9]", undefined, '["passwordHash","ASC"]').expect(400)).body.msg).toBe("Cannot sort templates by passwordHash");
    expect((await page("[9,0]").expect(400)).body.msg).toMatch(/^range/);
    expect((await page("not json").expect(400)).body.msg).toBe("range is not valid JSON");
    expect((await page("[0,9]", '{"nope":1}').expect(400)).body.msg).toBe("Unknown filter: nope");
    expect((await page("[0,9]", '{"category":"Horror"}').expect(400)).body.msg).toMatch(/^filter\.category/);
  });

  it("is for staff only: no token 401, a user's token 401", async () => {
    await t.http.get("/admin/api/templates").expect(401);
    const user = await visitor(t);
    await t.http.get("/admin/api/templates").set("token", user.token).expect(401);
  });

  it("validates bodies: a bad template changes nothing and says why", async () => {
    const before = await t.db.template.count();
    const res = await t.http
      .post("/admin/api/templates")
      .set("token", token("marketer"))
      .send({ name: "X", category: "Horror", suitFor: "a", mode: "image_to_video", creditPrice: 1 })
      .expect(400);
    expect(res.body.msg).toBe("category must be Portrait, Lifestyle or Creative");
    expect(
      (
        await t.http
          .post("/admin/api/templates")
          .set("token", token("marketer"))
          .send({ name: "X", category: "Portrait", suitFor: "a", mode: "image_to_video", creditPrice: 1, engineParams: "{oops" })
          .expect(400)
      ).body.msg,
    ).toBe("engineParams must be a JSON object");
    expect(await t.db.template.count()).toBe(before);
  });

  it("reorders templates in one audited change", async () => {
    const ids = (await page("[0,2]").expect(200)).body.map((x: { id: number }) => x.id).reverse();
    await t.http.post("/admin/api/templates/reorder").set("token", token("marketer")).send({ ids }).expect(200);
    const rows = await t.db.template.findMany({ where: { id: { in: ids } } });
    for (const [i, id] of ids.entries()) expect(rows.find((r) => r.id === id)?.sortOrder).toBe(i);
    expect(await t.db.auditLog.count({ where: { resource: "Template", action: "reorder" } })).toBe(1);
    // a later page keeps its places: the three templates at 10, 11, 12 swap among those places only
    const later = (await page("[10,12]").expect(200)).body.map((x: { id: number; sortOrder: number }) => x);
    expect(later.map((x: { sortOrder: number }) => x.sortOrder)).toEqual([10, 11, 12]);
    await t.http
      .post("/admin/api/templates/reorder")
      .set("token", token("marketer"))
      .send({ ids: later.map((x: { id: number }) => x.id).reverse() })
      .expect(200);
    const moved = await t.db.template.findMany({ where: { id: { in: later.map((x: { id: number }) => x.id) } }, orderBy: { sortOrder: "asc" } });
    expect(moved.map((x) => x.id)).toEqual(later.map((x: { id: number }) => x.id).reverse());
    expect(moved.map((x) => x.sortOrder)).toEqual([10, 11, 12]);
    await t.http.post("/admin/api/templates/reorder").set("token", token("support")).send({ ids }).expect(403);
  });
});

describe("input that collides with stored data", () => {
  it("is a clear 4xx, never a 500, and changes nothing", async () => {
    const dup = await t.http.post("/admin/api/channels").set("token", token("marketer")).send({ code: "ads", name: "Again" }).expect(409);
    expect(dup.body.msg).toBe("A record with this value already exists");
    const orphan = await t.http.post("/admin/api/pixel-ids").set("token", token("marketer")).send({ channelId: 999999, kind: 1, value: "FB-X" }).expect(400);
    expect(orphan.body.msg).toBe("A referenced record does not exist");
    await t.http.post("/admin/api/site-settings").set("token", token("marketer")).send({ key: "dupKey", value: 1 }).expect(200);
    await t.http.post("/admin/api/site-settings").set("token", token("marketer")).send({ key: "dupKey", value: 2 }).expect(409);
    expect(await t.db.auditLog.count({ where: { resource: "SiteSetting", resourceId: "dupKey" } })).toBe(1);
  });
});
