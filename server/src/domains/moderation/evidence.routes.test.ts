import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, fetchMedia, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { staffMember, type StaffLogin } from "../../../../tests/staff-utils.ts";

/** Issue 19 item 5: content reported or confirmed as underage is kept in a restricted store that expiry never empties. */
let t: TestApp;
let admin: StaffLogin;
let moderator: StaffLogin;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_REPORTS_PER_HOUR: "1000" });
  [admin, moderator] = [await staffMember(t, ["admin"]), await staffMember(t, ["moderator"])];
}, 60_000);
afterAll(() => t.close());

const PICTURE = Buffer.from("pretend these are the bytes of a reported picture");

async function sharedResult(userId: number, o: { expired?: boolean } = {}) {
  const key = `out/evidence-${userId}-${Date.now()}.png`;
  await t.services.storage.put(key, PICTURE, "image/png");
  const task = await t.db.generationTask.create({
    data: {
      userId,
      mode: "text_to_image",
      engine: "local",
      status: "succeeded",
      cost: 1,
      input: {},
      isPublic: true,
      outputKey: key,
      expiresAt: o.expired ? new Date(Date.now() - 1000) : new Date(Date.now() + 86_400_000),
    },
  });
  return { task, key };
}

describe("evidence preservation", () => {
  it("an underage report copies the content to the evidence store; the expiry job deletes the result but never the evidence", async () => {
    const owner = await visitor(t);
    const { task, key } = await sharedResult(owner.userId, { expired: true });
    await t.http.post("/api/report").send({ target_type: "task", target_id: task.id, reason: "underage" }).expect(200);
    const kept = await t.db.evidence.findUniqueOrThrow({ where: { targetType_targetId: { targetType: "task", targetId: task.id } } });
    expect(kept).toMatchObject({ userId: owner.userId, sourceKey: key, sizeBytes: PICTURE.length, kind: "image" });
    expect(kept.storageKey.startsWith("evidence/")).toBe(true);
    expect(kept.keepUntil.getTime() - Date.now()).toBeGreaterThan(364 * 86_400_000);
    // a second report about the same content keeps the one copy
    await t.http.post("/api/report").send({ target_type: "task", target_id: task.id, reason: "underage" }).expect(200);
    expect(await t.db.evidence.count({ where: { targetType: "task", targetId: task.id } })).toBe(1);

    expect(await t.services.generation.expireResults()).toBeGreaterThanOrEqual(1);
    expect((await t.db.generationTask.findUniqueOrThrow({ where: { id: task.id } })).status).toBe("expired");
    expect(await t.services.storage.exists(key)).toBe(false);
    expect(await t.services.storage.exists(kept.storageKey)).toBe(true);
    expect(await t.services.storage.get(kept.storageKey)).toEqual(PICTURE);
  });

  it("a takedown confirming an underage report preserves it too; other reasons keep nothing", async () => {
    const owner = await visitor(t);
    const { task } = await sharedResult(owner.userId);
    const other = (await t.http.post("/api/report").send({ target_type: "task", target_id: task.id, reason: "copyright" }).expect(200)).body.data.id as number;
    await t.http.post(`/admin/api/reports/${other}/takedown`).set("token", moderator.token).send({ reason: "Copyright notice" }).expect(200);
    expect(await t.db.evidence.count({ where: { targetType: "task", targetId: task.id } })).toBe(0);
  });

  it("only admins see the evidence and its file; the CyberTipline package export is audited", async () => {
    const owner = await visitor(t);
    const { task } = await sharedResult(owner.userId);
    await t.http.post("/api/report").send({ target_type: "task", target_id: task.id, reason: "underage", details: "Looks about 14" }).expect(200);
    const kept = await t.db.evidence.findUniqueOrThrow({ where: { targetType_targetId: { targetType: "task", targetId: task.id } } });

    await t.http.get("/admin/api/evidence").set("token", moderator.token).expect(403);
    await t.http.get(`/admin/api/evidence/${kept.id}/file`).set("token", moderator.token).expect(403);
    await t.http.post(`/admin/api/evidence/${kept.id}/export`).set("token", moderator.token).send({ reason: "Filing" }).expect(403);

    const list = await t.http.get("/admin/api/evidence").set("token", admin.token).expect(200);
    expect(list.body.map((e: { id: number }) => e.id)).toContain(kept.id);
    const file = await t.http.get(`/admin/api/evidence/${kept.id}/file`).set("token", admin.token).expect(200);
    expect((await fetchMedia(t, file.body.url)).body).toEqual(PICTURE);

    const pkg = (await t.http.post(`/admin/api/evidence/${kept.id}/export`).set("token", admin.token).send({ reason: "Filing with NCMEC" }).expect(200)).body;
    expect(pkg).toMatchObject({
      incidentSummary: { incidentType: "Child Pornography (possession, manufacture, and distribution)", incidentDateTime: expect.any(String) },
      personOrUserReported: { espIdentifier: String(owner.userId), espService: "Reverie", ipCaptureEvent: expect.any(Array) },
      files: [
        {
          originalFileHash: [
            { hashType: "SHA256", value: kept.sha256 },
            { hashType: "MD5", value: kept.md5 },
          ],
        },
      ],
      additionalInfo: expect.stringContaining("Looks about 14"),
    });
    expect(pkg.submission).toContain("Not submitted");
    const audit = await t.db.auditLog.findFirstOrThrow({ where: { resource: "Evidence", resourceId: String(kept.id), action: "export" } });
    expect(audit).toMatchObject({ staffId: admin.staffId, reason: "Filing with NCMEC" });
  });
});
