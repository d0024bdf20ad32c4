import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ContentState } from "../db/generated/enums.ts";
import { createTestApp, visitor, type TestApp } from "../../../tests/db-utils.ts";
import { staffMember, type StaffLogin } from "../../../tests/staff-utils.ts";

let t: TestApp;
let moderator: StaffLogin;
let support: StaffLogin;
let marketer: StaffLogin;
let owner: number;

beforeAll(async () => {
  t = await createTestApp();
  moderator = await staffMember(t, ["moderator"]);
  support = await staffMember(t, ["support"]);
  marketer = await staffMember(t, ["marketer"]);
  owner = (await visitor(t)).userId;
}, 60_000);
afterAll(() => t.close());

const kinds = [
  {
    name: "characters",
    model: "Character",
    targetType: "character" as const,
    make: (name: string, state: ContentState = "active") => t.db.character.create({ data: { userId: owner, name, isPublic: true, state } }),
  },
  {
    name: "creator-pages",
    model: "CreatorPage",
    targetType: "creator_page" as const,
    make: async (title: string, state: ContentState = "active") =>
      t.db.creatorPage.create({ data: { userId: (await visitor(t)).userId, homeLink: `p-${Math.random().toString(36).slice(2)}`, title, state } }),
  },
];

describe.each(kinds)("/admin/api/$name", (k) => {
  it("a moderator lists them (owner, state; search, paging with Content-Range) and reads one; support may not (403)", async () => {
    const a = await k.make("Luna the guide");
    const b = await k.make("Orion", "suspended");

    const all = await t.http
      .get(`/admin/api/${k.name}`)
      .query({ sort: '["id","ASC"]', range: "[0,0]", filter: "{}" })
      .set("token", moderator.token)
      .expect(200);
    expect(all.headers["content-range"]).toMatch(new RegExp(`^${k.name} 0-0/\\d+$`));
    expect(all.body).toHaveLength(1);

    const found = await t.http
      .get(`/admin/api/${k.name}`)
      .query({ filter: JSON.stringify({ q: "luna" }) })
      .set("token", moderator.token)
      .expect(200);
    expect(found.body.map((r: { id: number }) => r.id)).toContain(a.id);
    expect(found.body.map((r: { id: number }) => r.id)).not.toContain(b.id);

    const suspended = await t.http
      .get(`/admin/api/${k.name}`)
      .query({ filter: JSON.stringify({ state: "suspended" }) })
      .set("token", moderator.token)
      .expect(200);
    expect(suspended.body).toEqual([expect.objectContaining({ id: b.id, state: "suspended", userId: b.userId })]);

    const one = await t.http.get(`/admin/api/${k.name}/${a.id}`).set("token", moderator.token).expect(200);
    expect(one.body).toMatchObject({ id: a.id, userId: a.userId, state: "active" });

    await t.http.get(`/admin/api/${k.name}`).set("token", support.token).expect(403);
    await t.http.get(`/admin/api/${k.name}/${a.id}`).set("token", marketer.token).expect(403);
    await t.http.get(`/admin/api/${k.name}`).query({ filter: '{"nope":1}' }).set("token", moderator.token).expect(400);
  });

  it("a moderator takes one down with a reason: state removed, its open reports actioned, one audit row; others may not", async () => {
    const c = await k.make("Reported one");
    const report = await t.db.report.create({ data: { targetType: k.targetType, targetId: c.id, targetUserId: c.userId, reason: "other" } });

    await t.http.post(`/admin/api/${k.name}/${c.id}/takedown`).set("token", marketer.token).send({ reason: "Not allowed" }).expect(403);
    const noReason = await t.http.post(`/admin/api/${k.name}/${c.id}/takedown`).set("token", moderator.token).send({}).expect(400);
    expect(noReason.body.msg).toBe("Please give a reason");

    const done = await t.http
      .post(`/admin/api/${k.name}/${c.id}/takedown`)
      .set("token", moderator.token)
      .send({ reason: "Impersonates a real person" })
      .expect(200);
    expect(done.body).toMatchObject({ id: c.id, state: "removed" });
    expect((await t.db.report.findUniqueOrThrow({ where: { id: report.id } })).status).toBe("actioned");

    const audits = await t.db.auditLog.findMany({ where: { resource: k.model, resourceId: String(c.id), action: "takedown" } });
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      staffId: moderator.staffId,
      reason: "Impersonates a real person",
      before: { id: c.id, state: "active" },
      after: { id: c.id, state: "removed" },
    });

    const again = await t.http.post(`/admin/api/${k.name}/${c.id}/takedown`).set("token", moderator.token).send({ reason: "Once more please" }).expect(409);
    expect(again.body.msg).toBe("This content is already taken down");
    await t.http.post(`/admin/api/${k.name}/999999/takedown`).set("token", moderator.token).send({ reason: "Missing one" }).expect(404);
    expect(await t.db.auditLog.count({ where: { resource: k.model, resourceId: String(c.id) } })).toBe(1);
  });
});

describe("/admin/api/creator-pages restore", () => {
  it("shows a taken-down page again once, audited, for moderators only; the page answers its link again", async () => {
    const page = await t.db.creatorPage.create({ data: { userId: (await visitor(t)).userId, homeLink: `restore-${Date.now()}`, title: "Mistaken takedown" } });
    await t.http.post(`/admin/api/creator-pages/${page.id}/takedown`).set("token", moderator.token).send({ reason: "Looked like impersonation" }).expect(200);
    await t.http.post(`/admin/api/creator-pages/${page.id}/restore`).set("token", support.token).send({ reason: "It is really her" }).expect(403);
    const clicks = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.http.post(`/admin/api/creator-pages/${page.id}/restore`).set("token", moderator.token).send({ reason: "It is really her" }),
      ),
    );
    expect(clicks.filter((r) => r.status === 200)).toHaveLength(1);
    expect(clicks.filter((r) => r.status === 409).every((r) => r.body.msg === "This content is not taken down")).toBe(true);
    expect((await t.db.creatorPage.findUniqueOrThrow({ where: { id: page.id } })).state).toBe("active");
    const audits = await t.db.auditLog.findMany({ where: { resource: "CreatorPage", resourceId: String(page.id), action: "restore" } });
    expect(audits).toEqual([
      expect.objectContaining({
        staffId: moderator.staffId,
        reason: "It is really her",
        before: { id: page.id, userId: page.userId, state: "removed" },
        after: { id: page.id, userId: page.userId, state: "active" },
      }),
    ]);
    await t.http.get("/api/Subscribe/getHomeLinkInfo").query({ home_link: page.homeLink }).expect(200);
  });
});
