import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEGAL_DOCUMENTS, LEGAL_FIELDS } from "../../contract/legal.ts";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { staffMember, type StaffLogin } from "../../../../tests/staff-utils.ts";
import { seedProducts } from "../products/products.seed.ts";
import { seedLegal } from "./legal.seed.ts";

let t: TestApp;
let admin: StaffLogin;

const documents = Object.fromEntries(LEGAL_DOCUMENTS.map((d) => [d, { en: `${d} text by {{companyName}}`, ru: `${d} — текст` }]));
const complete = {
  companyName: "Reverie Ltd",
  address: "1 Example Street, Dublin",
  contactEmail: "legal@reverie.example",
  dmcaAgent: "Jane Doe, dmca@reverie.example",
  custodianStatement: "Records required by 18 U.S.C. 2257 are kept by the custodian of records at the address above.",
  documents,
};

beforeAll(async () => {
  t = await createTestApp();
  await seedProducts(t.db);
  admin = await staffMember(t, ["admin"]);
});
afterAll(() => t.close());

const current = async () => (await t.http.get("/api/legal/current").expect(200)).body.data;

describe("legal pages", () => {
  it("the seeded draft is in force and says which particulars are missing", async () => {
    await seedLegal(t.db);
    await seedLegal(t.db);
    const draft = await current();
    expect(draft.version).toBe(1);
    expect(draft.missing).toEqual([...LEGAL_FIELDS]);
    expect(draft.documents.legal.en).toContain("{{custodianStatement}}");
    expect(draft.documents.legal.en).toContain("{{dmcaAgent}}");
    expect(Object.keys(draft.documents).sort()).toEqual([...LEGAL_DOCUMENTS].sort());
  });

  it("an admin publishes a completed version; it is in force from its effective date, the order records the version agreed to", async () => {
    const later = await t.http
      .post("/admin/api/legal-versions")
      .set("token", admin.token)
      .send({ ...complete, effectiveAt: new Date(Date.now() + 86_400_000).toISOString() })
      .expect(200);
    expect(later.body).toMatchObject({ version: 2, missing: [], current: false });
    // not in force before its date: orders still record version 1
    expect((await current()).version).toBe(1);
    const buyer = await visitor(t);
    const product = await t.db.product.findFirstOrThrow({ where: { code: "credits_150" } });
    const buy = () =>
      t.http
        .post("/api/order/createOrderAndPay")
        .set("token", buyer.token)
        .send({ product_id: product.id, provider: "sandbox", agree_terms: true })
        .expect(200);
    const first = (await buy()).body.data;
    expect((await t.db.order.findUniqueOrThrow({ where: { id: first.order_id } })).termsVersion).toBe(1);

    const now = await t.http
      .post("/admin/api/legal-versions")
      .set("token", admin.token)
      .send({ ...complete, effectiveAt: new Date().toISOString() })
      .expect(200);
    expect(now.body).toMatchObject({ version: 3, current: true, companyName: "Reverie Ltd" });
    const inForce = await current();
    expect(inForce).toMatchObject({ version: 3, missing: [], fields: { companyName: "Reverie Ltd" } });
    expect(inForce.documents.terms).toEqual({ en: "terms text by {{companyName}}", ru: "terms — текст" });
    const second = (await buy()).body.data;
    expect((await t.db.order.findUniqueOrThrow({ where: { id: second.order_id } })).termsVersion).toBe(3);
    expect(await t.db.auditLog.count({ where: { resource: "LegalVersion", action: "create" } })).toBe(2);
    const listed = (await t.http.get("/admin/api/legal-versions").set("token", admin.token).expect(200)).body;
    expect(listed.map((v: { version: number; current: boolean }) => [v.version, v.current])).toEqual([
      [3, true],
      [2, false],
      [1, false],
    ]);
  });

  it("a version dated in the past is in force from its publication, never earlier (issue 46 item 18)", async () => {
    const before = Date.now();
    const res = await t.http
      .post("/admin/api/legal-versions")
      .set("token", admin.token)
      .send({ ...complete, effectiveAt: new Date(before - 30 * 86_400_000).toISOString() })
      .expect(200);
    const row = await t.db.legalVersion.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.effectiveAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(row.effectiveAt.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("only admins publish: support, marketers and moderators are refused, and people have no console at all", async () => {
    for (const role of ["support", "marketer", "moderator"] as const) {
      const staff = await staffMember(t, [role]);
      await t.http.get("/admin/api/legal-versions").set("token", staff.token).expect(403);
      await t.http
        .post("/admin/api/legal-versions")
        .set("token", staff.token)
        .send({ ...complete, effectiveAt: new Date().toISOString() })
        .expect(403);
    }
    const person = await visitor(t);
    expect((await t.http.post("/admin/api/legal-versions").set("token", person.token).send(complete)).status).toBeGreaterThanOrEqual(401);
    // anyone reads the pages in force, signed in or not
    await t.http.get("/api/legal/current").set("token", person.token).expect(200);
  });

  it("refuses a version without every document's English text, or with a bad email, and publishes nothing", async () => {
    const before = await t.db.legalVersion.count();
    const { terms: _terms, ...withoutTerms } = documents;
    const bad = [
      { ...complete, effectiveAt: new Date().toISOString(), documents: withoutTerms },
      { ...complete, effectiveAt: new Date().toISOString(), documents: { ...documents, privacy: { en: " " } } },
      { ...complete, effectiveAt: new Date().toISOString(), contactEmail: "not-an-email" },
      { ...complete, effectiveAt: "yesterday" },
    ];
    for (const body of bad) {
      const res = await t.http.post("/admin/api/legal-versions").set("token", admin.token).send(body);
      expect(res.status).toBe(400);
    }
    expect(await t.db.legalVersion.count()).toBe(before);
  });
});
