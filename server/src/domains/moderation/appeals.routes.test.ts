import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { staffMember, type StaffLogin } from "../../../../tests/staff-utils.ts";
import { SAME_MODERATOR, type Notice } from "./appeals.service.ts";

/** Issue 19 item 4: statements of reasons for every takedown, hold and ban; appeals to another moderator; restore; repeat offenders. */
let t: TestApp;
let decider: StaffLogin;
let reviewer: StaffLogin;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_REPORTS_PER_HOUR: "1000", REPEAT_OFFENDER_TAKEDOWNS: "2" });
  [decider, reviewer] = await Promise.all([staffMember(t, ["moderator"]), staffMember(t, ["moderator"])]);
}, 60_000);
afterAll(() => t.close());

const sharedTask = (userId: number) =>
  t.db.generationTask.create({ data: { userId, mode: "image_to_video", engine: "local", status: "succeeded", cost: 1, input: {}, isPublic: true } });
const report = async (taskId: number, reason = "non_consensual") =>
  (await t.http.post("/api/report").send({ target_type: "task", target_id: taskId, reason }).expect(200)).body.data.id as number;
const notices = async (token: string) => (await t.http.get("/api/notices").set("token", token).expect(200)).body.data.list as Notice[];
const decide = (who: StaffLogin, appealId: number, outcome: "upheld" | "reversed", reason = "Looked again") =>
  t.http
    .post(`/admin/api/appeals/${appealId}/${outcome === "upheld" ? "uphold" : "reverse"}`)
    .set("token", who.token)
    .send({ reason });
const appeal = (n: { id: number; appeal_key: string }, text = "This is my own face and I consented to it.") =>
  t.http.post("/api/notices/appeal").send({ id: n.id, key: n.appeal_key, text });
const taskState = async (id: number) => (await t.db.generationTask.findUniqueOrThrow({ where: { id } })).state;

describe("a takedown", () => {
  it("tells the owner what, why, by whom (not automated) and how to appeal; the same moderator may not decide the appeal; another restores it, audited", async () => {
    const owner = await visitor(t);
    const task = await sharedTask(owner.userId);
    const reportId = await report(task.id);
    await t.http.post(`/admin/api/reports/${reportId}/takedown`).set("token", decider.token).send({ reason: "Shows a person who did not consent" }).expect(200);
    expect(await taskState(task.id)).toBe("removed");

    const [n] = await notices(owner.token);
    expect(n).toMatchObject({
      action: "takedown",
      ground: "non_consensual",
      automated: false,
      explanation: "Shows a person who did not consent",
      target_type: "task",
      target_id: task.id,
      appeal: null,
      reversed_at: null,
    });
    // another person's notices are not theirs to read
    const stranger = await visitor(t);
    expect(await notices(stranger.token)).toEqual([]);

    const filed = (await appeal(n).expect(200)).body.data;
    await appeal(n).expect(409);
    await decide(decider, filed.id, "reversed")
      .expect(403)
      .then((r) => expect(r.body.msg).toBe(SAME_MODERATOR));
    expect(await taskState(task.id)).toBe("removed");

    await decide(reviewer, filed.id, "reversed", "Consent on file").expect(200);
    await decide(reviewer, filed.id, "upheld").expect(409);
    expect(await taskState(task.id)).toBe("active");
    const [after] = await notices(owner.token);
    expect(after.reversed_at).not.toBeNull();
    expect(after.appeal).toMatchObject({ status: "reversed", answer: "Consent on file" });
    const audit = (
      await t.db.auditLog.findMany({
        where: {
          OR: [
            { resource: "Appeal", resourceId: String(filed.id) },
            { resource: "GenerationTask", resourceId: String(task.id) },
          ],
        },
        orderBy: { id: "asc" },
      })
    ).map((a) => `${a.resource}:${a.action}:${a.staffId}`);
    expect(audit).toEqual([`GenerationTask:restore:${reviewer.staffId}`, `Appeal:appeal_reversed:${reviewer.staffId}`]);
  });

  it("an appeal with a wrong key answers like a missing decision; an upheld appeal changes nothing", async () => {
    const owner = await visitor(t);
    const task = await sharedTask(owner.userId);
    await t.http
      .post(`/admin/api/reports/${await report(task.id, "copyright")}/takedown`)
      .set("token", decider.token)
      .send({ reason: "Copyright holder's notice" })
      .expect(200);
    const [n] = await notices(owner.token);
    const missing = await appeal({ id: 99_999_999, appeal_key: n.appeal_key }).expect(404);
    const wrong = await appeal({ id: n.id, appeal_key: `${n.appeal_key.slice(0, -2)}xx` }).expect(404);
    expect(wrong.body).toEqual(missing.body);
    await appeal({ id: n.id, appeal_key: n.appeal_key }, "short").expect(400);
    const filed = (await appeal(n).expect(200)).body.data;
    await decide(reviewer, filed.id, "upheld", "The notice is valid").expect(200);
    expect(await taskState(task.id)).toBe("removed");
    expect((await notices(owner.token))[0]).toMatchObject({ ground: "copyright", reversed_at: null, appeal: { status: "upheld" } });
  });
});

describe("an automated hold", () => {
  it("an underage report's suspension is a statement marked automated; any moderator may reverse it, which shows the content again", async () => {
    const owner = await visitor(t);
    const task = await sharedTask(owner.userId);
    await report(task.id, "underage");
    const [n] = await notices(owner.token);
    expect(n).toMatchObject({ action: "hold", ground: "underage", automated: true, explanation: "" });
    const filed = (await appeal(n).expect(200)).body.data;
    await decide(decider, filed.id, "reversed", "Everyone shown is an adult").expect(200);
    expect(await taskState(task.id)).toBe("active");
    expect(await t.db.report.count({ where: { targetType: "task", targetId: task.id, status: "open" } })).toBe(0);
  });
});

describe("a ban", () => {
  it("the ban screen carries the statement with its appeal key; the appeal works without a login, and reversing it restores the account", async () => {
    const owner = await visitor(t);
    await t.http
      .post(`/admin/api/users/${owner.userId}/ban`)
      .set("token", decider.token)
      .send({ reason: "Uploaded someone else's photos", ground: "impersonation" })
      .expect(200);
    const refused = await t.http.get("/api/Personal/personal_info").set("token", owner.token).expect(403);
    const d = refused.body.data.decision;
    expect(d).toMatchObject({ ground: "impersonation", automated: false, appeal_status: null, appeal_key: expect.any(String) });
    const filed = (await appeal({ id: d.id, appeal_key: d.appeal_key }).expect(200)).body.data;
    expect((await t.http.get("/api/Personal/personal_info").set("token", owner.token).expect(403)).body.data.decision.appeal_status).toBe("open");
    await decide(decider, filed.id, "reversed").expect(403);
    await decide(reviewer, filed.id, "reversed", "Their own photos").expect(200);
    const user = await t.db.user.findUniqueOrThrow({ where: { id: owner.userId } });
    expect(user.bannedAt).toBeNull();
    expect(await t.db.ban.count({ where: { userId: owner.userId, liftedAt: null } })).toBe(0);
    const actions = (await t.db.auditLog.findMany({ where: { resource: "User", resourceId: String(owner.userId) }, orderBy: { id: "asc" } })).map(
      (a) => `${a.action}:${a.staffId}`,
    );
    expect(actions).toEqual([`ban:${decider.staffId}`, `unban:${reviewer.staffId}`]);
  });
});

describe("repeat offenders", () => {
  it("the configured number of upheld takedowns suspends the account automatically, with its own automated statement; a reversed one does not count", async () => {
    const owner = await visitor(t);
    const [a, b, c] = await Promise.all([sharedTask(owner.userId), sharedTask(owner.userId), sharedTask(owner.userId)]);
    const takedown = async (taskId: number) =>
      t.http
        .post(`/admin/api/reports/${await report(taskId)}/takedown`)
        .set("token", decider.token)
        .send({ reason: "Not consented" })
        .expect(200);
    await takedown(a.id);
    const first = (await notices(owner.token))[0];
    await decide(reviewer, (await appeal(first).expect(200)).body.data.id, "reversed").expect(200);
    await takedown(b.id);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: owner.userId } })).bannedAt).toBeNull();
    await takedown(c.id);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: owner.userId } })).bannedAt).not.toBeNull();
    const ban = await t.db.decision.findFirstOrThrow({ where: { userId: owner.userId, action: "ban" } });
    expect(ban).toMatchObject({ ground: "repeat_offender", automated: true, decidedById: null });
    const refused = await t.http.get("/api/Personal/personal_info").set("token", owner.token).expect(403);
    expect(refused.body.data.decision).toMatchObject({ id: ban.id, ground: "repeat_offender", automated: true });
  });
});
