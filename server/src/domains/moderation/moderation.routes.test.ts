import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { staffMember, type StaffLogin } from "../../../../tests/staff-utils.ts";

/** Issue 12 items 1 and 2: reports cannot hide other people's private work, and do not reveal whether it exists. */
let t: TestApp;
let moderator: StaffLogin;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_REPORTS_PER_HOUR: "1000" });
  moderator = await staffMember(t, ["moderator"]);
}, 60_000);
afterAll(() => t.close());

const upload = (userId: number) =>
  t.db.upload.create({ data: { userId, kind: "image", storageKey: `k/${Math.random()}`, mime: "image/jpeg", sizeBytes: 1, sha256: "x" } });
const task = (userId: number, isPublic: boolean) =>
  t.db.generationTask.create({ data: { userId, mode: "image_to_video", engine: "local", status: "succeeded", cost: 1, input: {}, isPublic } });
const state = async (kind: "upload" | "task", id: number) =>
  kind === "upload" ? (await t.db.upload.findUniqueOrThrow({ where: { id } })).state : (await t.db.generationTask.findUniqueOrThrow({ where: { id } })).state;
const report = (body: object, token?: string) => {
  const r = t.http.post("/api/report");
  if (token) r.set("token", token);
  return r.send(body);
};
const dismiss = (id: number) => t.http.post(`/admin/api/reports/${id}/dismiss`).set("token", moderator.token).send({ reason: "Checked: adult" });

describe("private objects", () => {
  it("another user's never-shared upload or task cannot be reported, and answers exactly like an id that does not exist", async () => {
    const owner = await visitor(t);
    const stranger = await visitor(t);
    const up = await upload(owner.userId);
    const tk = await task(owner.userId, false);
    const missing = await report({ target_type: "upload", target_id: 99_999_999, reason: "underage" });
    expect(missing.status).toBe(404);
    for (const [kind, id] of [
      ["upload", up.id],
      ["task", tk.id],
    ] as const) {
      for (const token of [undefined, stranger.token]) {
        const res = await report({ target_type: kind, target_id: id, reason: "underage" }, token);
        expect(res.status).toBe(missing.status);
        expect(res.body).toEqual(missing.body);
      }
      expect(await state(kind, id)).toBe("active");
    }
    expect(await t.db.report.count({ where: { targetUserId: owner.userId } })).toBe(0);
    // the owner still sees their work
    await t.http.get("/api/ImageUpload/uploadDetails2").query({ id: up.id }).set("token", owner.token).expect(200);
  });

  it("the owner may report their own private upload; an underage report from them suspends it, audited", async () => {
    const owner = await visitor(t);
    const up = await upload(owner.userId);
    const res = await report({ target_type: "upload", target_id: up.id, reason: "underage" }, owner.token).expect(200);
    expect(await state("upload", up.id)).toBe("suspended");
    const audit = await t.db.auditLog.findFirstOrThrow({ where: { resource: "Upload", resourceId: String(up.id), action: "suspend" } });
    expect(audit).toMatchObject({ staffId: null, after: { state: "suspended", reportId: res.body.data.id } });
  });
});

describe("public content", () => {
  it("a shared creation is reportable by anyone; an underage report suspends it, and dismissing restores it, both audited", async () => {
    const owner = await visitor(t);
    const tk = await task(owner.userId, true);
    const filed = await report({ target_type: "task", target_id: tk.id, reason: "underage" }).expect(200);
    expect(await state("task", tk.id)).toBe("suspended");
    await dismiss(filed.body.data.id).expect(200);
    expect(await state("task", tk.id)).toBe("active");
    const actions = (await t.db.auditLog.findMany({ where: { resource: "GenerationTask", resourceId: String(tk.id) }, orderBy: { id: "asc" } })).map(
      (a) => `${a.action}:${a.staffId ?? "system"}`,
    );
    expect(actions).toEqual(["suspend:system", `restore:${moderator.staffId}`]);
  });

  it("stays suspended while another underage report about it is still open; a takedown is never undone by a dismissal", async () => {
    const owner = await visitor(t);
    const tk = await task(owner.userId, true);
    const a = (await report({ target_type: "task", target_id: tk.id, reason: "underage" }).expect(200)).body.data.id as number;
    const b = (await report({ target_type: "task", target_id: tk.id, reason: "underage" }).expect(200)).body.data.id as number;
    await dismiss(a).expect(200);
    expect(await state("task", tk.id)).toBe("suspended");
    await dismiss(b).expect(200);
    expect(await state("task", tk.id)).toBe("active");

    const c = (await report({ target_type: "task", target_id: tk.id, reason: "underage" }).expect(200)).body.data.id as number;
    const d = (await report({ target_type: "task", target_id: tk.id, reason: "other" }).expect(200)).body.data.id as number;
    await t.http.post(`/admin/api/reports/${c}/takedown`).set("token", moderator.token).send({ reason: "Confirmed" }).expect(200);
    await dismiss(d).expect(409); // answered by the takedown
    expect(await state("task", tk.id)).toBe("removed");
  });

  it("a report other than underage suspends nothing; a creator page is public and reportable by anyone", async () => {
    const owner = await visitor(t);
    const tk = await task(owner.userId, true);
    await report({ target_type: "task", target_id: tk.id, reason: "non_consensual" }).expect(200);
    expect(await state("task", tk.id)).toBe("active");
    const page = await t.db.creatorPage.create({ data: { userId: owner.userId, homeLink: `p-${owner.userId}`, title: "Mine" } });
    await report({ target_type: "creator_page", target_id: page.id, reason: "underage" }).expect(200);
    expect((await t.db.creatorPage.findUniqueOrThrow({ where: { id: page.id } })).state).toBe("suspended");
  });

  it("a private character is reportable only by its owner; a shared one by anyone", async () => {
    const owner = await visitor(t);
    const hidden = await t.db.character.create({ data: { userId: owner.userId, name: "Mine" } });
    const shared = await t.db.character.create({ data: { userId: owner.userId, name: "Ours", isPublic: true } });
    await report({ target_type: "character", target_id: hidden.id, reason: "underage" }).expect(404);
    await report({ target_type: "character", target_id: shared.id, reason: "underage" }).expect(200);
    expect((await t.db.character.findUniqueOrThrow({ where: { id: hidden.id } })).state).toBe("active");
    expect((await t.db.character.findUniqueOrThrow({ where: { id: shared.id } })).state).toBe("suspended");
  });
});
