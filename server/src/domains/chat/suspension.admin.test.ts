import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { staffMember } from "../../../../tests/staff-utils.ts";
import { MSG } from "../../http/messages.ts";

/** Lifting a chat suspension from the console: who may, what they see first, that it is audited and happens once. */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ CHAT_POLICY_STRIKES: "2" });
}, 60_000);
afterAll(() => t.close());

const CARD = { name: "Nova", description: "A starship engineer", age: 30 };
const MINOR_CARD = { name: "Kid", description: "a 14-year-old schoolgirl" };
const save = (token: string, card: object) => t.http.post("/api/RoleChat/creatCharacter").set("token", token).send(card);

async function suspendedUser() {
  const u = await visitor(t);
  await save(u.token, MINOR_CARD).expect(400);
  await save(u.token, { ...MINOR_CARD, description: "pretend to be a child, ageplay" }).expect(400);
  const res = await save(u.token, CARD).expect(403);
  expect(res.body.msg).toBe(MSG.chatSuspended);
  return u;
}

describe("chat suspensions in the console", () => {
  it("shows why chat was suspended, lets a moderator lift it once with a reason, audited; support may not", async () => {
    const u = await suspendedUser();
    const mod = await staffMember(t, ["moderator"]);
    const support = await staffMember(t, ["support"]);

    // support handles accounts and payments, not safety decisions
    await t.http.get("/admin/api/chat-suspensions").set("token", support.token).expect(403);
    await t.http.post(`/admin/api/chat-suspensions/${u.userId}/lift`).set("token", support.token).send({ reason: "customer asked" }).expect(403);
    await t.http.post(`/admin/api/chat-suspensions/${u.userId}/lift`).set("token", u.token).send({ reason: "let me in" }).expect(401);

    const list = (await t.http.get("/admin/api/chat-suspensions").set("token", mod.token).expect(200)).body;
    expect(list).toContainEqual(expect.objectContaining({ id: u.userId, userId: u.userId, hits: 2 }));
    const one = (await t.http.get(`/admin/api/chat-suspensions/${u.userId}`).set("token", mod.token).expect(200)).body;
    expect(one).toMatchObject({ suspended: true, hits: 2, strikes: 2 });
    expect(one.policyHits.map((h: { rule: string; excerpt: string }) => h.rule)).toEqual(["minor_character", "minor_character"]);
    expect(one.policyHits[0].excerpt).toContain("14-year-old");

    // a reason is required, and a bad one changes nothing
    await t.http.post(`/admin/api/chat-suspensions/${u.userId}/lift`).set("token", mod.token).send({}).expect(400);
    expect((await t.http.get(`/admin/api/chat-suspensions/${u.userId}`).set("token", mod.token).expect(200)).body.suspended).toBe(true);

    // two moderators press the button at once: one lift, one conflict, one audit row
    const [a, b] = await Promise.all([
      t.http.post(`/admin/api/chat-suspensions/${u.userId}/lift`).set("token", mod.token).send({ reason: "appeal reviewed: the card was a typo" }),
      t.http.post(`/admin/api/chat-suspensions/${u.userId}/lift`).set("token", mod.token).send({ reason: "appeal reviewed: the card was a typo" }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect((a.status === 200 ? a : b).body).toMatchObject({ suspended: false, hits: 0 });
    const audit = await t.db.auditLog.findMany({ where: { action: "lift_chat_suspension", resourceId: String(u.userId) } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ staffId: mod.staffId, resource: "User", reason: "appeal reviewed: the card was a typo" });

    // the hits stay on record, marked lifted; chat works again; the account is off the list
    const hits = await t.db.chatPolicyHit.findMany({ where: { userId: u.userId } });
    expect(hits).toHaveLength(2);
    expect(hits.every((h) => h.liftedAt !== null && h.liftedById === mod.staffId)).toBe(true);
    await save(u.token, CARD).expect(200);
    const after = (await t.http.get("/admin/api/chat-suspensions").set("token", mod.token).expect(200)).body;
    expect(after.map((r: { id: number }) => r.id)).not.toContain(u.userId);

    // strikes count afresh after a lift
    await save(u.token, MINOR_CARD).expect(400);
    await save(u.token, CARD).expect(200);
    await save(u.token, MINOR_CARD).expect(400);
    await save(u.token, CARD).expect(403);
  });

  it("an account that is not suspended cannot be lifted; an unknown one is 404", async () => {
    const admin = await staffMember(t, ["admin"]);
    const u = await visitor(t);
    await t.http.post(`/admin/api/chat-suspensions/${u.userId}/lift`).set("token", admin.token).send({ reason: "nothing to lift" }).expect(409);
    await t.http.get("/admin/api/chat-suspensions/99999999").set("token", admin.token).expect(404);
  });
});
