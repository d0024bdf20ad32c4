import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { staffMember, type StaffLogin } from "../../../../tests/staff-utils.ts";
import { photo } from "../../../../tests/fixtures/media.ts";

/** Issue 19 item 3: the public notice-and-action form, its 48-hour clock in the queue, the preview and the figures. */
let t: TestApp;
let moderator: StaffLogin;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_REPORTS_PER_HOUR: "1000" });
  moderator = await staffMember(t, ["moderator"]);
}, 60_000);
afterAll(() => t.close());

const sharedTask = (userId: number, o: { isPublic?: boolean; outputKey?: string; posterKey?: string } = {}) =>
  t.db.generationTask.create({
    data: {
      userId,
      mode: "image_to_video",
      engine: "local",
      status: "succeeded",
      cost: 1,
      input: {},
      isPublic: o.isPublic ?? true,
      outputKey: o.outputKey,
      posterKey: o.posterKey,
    },
  });
const notice = (body: object) => t.http.post("/api/notices/report").send(body);
const base = { reason: "non_consensual", email: "person@example.com", name: "A. Person", details: "That is me, I never agreed", sworn: true };
const queue = async (filter: object) =>
  (
    await t.http
      .get("/admin/api/reports")
      .query({ filter: JSON.stringify(filter) })
      .set("token", moderator.token)
      .expect(200)
  ).body as Record<string, unknown>[];

describe("the public notice form", () => {
  it("without an account, a gallery link lands in the queue as a notice with its contact, sworn time and age clock", async () => {
    const owner = await visitor(t);
    const task = await sharedTask(owner.userId);
    const res = await notice({ ...base, url: `https://reverie.example/home?item=${task.id}` }).expect(200);
    const row = await t.db.report.findUniqueOrThrow({ where: { id: res.body.data.id } });
    expect(row).toMatchObject({
      source: "notice",
      targetType: "task",
      targetId: task.id,
      targetUserId: owner.userId,
      reporterUserId: null,
      contactEmail: "person@example.com",
      contactName: "A. Person",
      status: "open",
    });
    expect(row.swornAt).toBeInstanceOf(Date);
    const listed = (await queue({ source: "notice" })).find((r) => r.id === row.id);
    expect(listed).toMatchObject({ targetSeconds: 48 * 3600, breached: false, ageSeconds: expect.any(Number) });
    // non-consensual: the content stays up until a moderator decides
    expect((await t.db.generationTask.findUniqueOrThrow({ where: { id: task.id } })).state).toBe("active");
    // the notifier is told the notice arrived, and later what was decided
    const mails = () => t.db.outboxEmail.findMany({ where: { to: "person@example.com", subject: `Reverie: your notice #${row.id}` }, orderBy: { id: "asc" } });
    expect((await mails()).map((m) => m.body)).toEqual([expect.stringContaining("We received your notice")]);
    await t.http.post(`/admin/api/reports/${row.id}/takedown`).set("token", moderator.token).send({ reason: "Not consented" }).expect(200);
    expect((await mails()).map((m) => m.body)).toEqual([expect.stringContaining("We received your notice"), expect.stringContaining("removed the content")]);
  });

  it("a notice older than 48 hours is marked breached in the queue", async () => {
    const owner = await visitor(t);
    const task = await sharedTask(owner.userId);
    const id = (await notice({ ...base, url: `/home?item=${task.id}` }).expect(200)).body.data.id as number;
    await t.db.report.update({ where: { id }, data: { createdAt: new Date(Date.now() - 49 * 3600_000) } });
    expect((await queue({ id: [id] }))[0]).toMatchObject({ breached: true });
  });

  it("a removal request without the sworn statement, a bad email or an unknown reason is refused and writes nothing", async () => {
    const owner = await visitor(t);
    const task = await sharedTask(owner.userId);
    const url = `/home?item=${task.id}`;
    const before = await t.db.report.count();
    expect((await notice({ ...base, url, sworn: false }).expect(400)).body.msg).toBe("A removal request needs the sworn statement");
    expect((await notice({ ...base, url, email: "nope" }).expect(400)).body.msg).toBe("Please enter a valid email");
    expect((await notice({ ...base, url, reason: "boring" }).expect(400)).body.msg).toBe(
      "reason must be underage, non_consensual, impersonation, copyright or other",
    );
    await notice({ ...base, url: "" }).expect(400);
    // asking only for a review needs no sworn statement
    await notice({ ...base, url, removal: false, sworn: false, reason: "copyright" }).expect(200);
    expect(await t.db.report.count()).toBe(before + 1);
  });

  it("a link to private or missing content answers exactly alike and writes nothing", async () => {
    const owner = await visitor(t);
    const hidden = await sharedTask(owner.userId, { isPublic: false, outputKey: `out/hidden-${owner.userId}.mp4` });
    const missing = await notice({ ...base, url: "/home?item=99999999" }).expect(404);
    for (const url of [
      `/home?item=${hidden.id}`,
      `/api/media/file?key=out/hidden-${owner.userId}.mp4&expires=1&sig=x`,
      "/not-a-page-anyone-has",
      "https://elsewhere.example/whatever/path",
    ]) {
      const res = await notice({ ...base, url });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(missing.body);
    }
    expect(await t.db.report.count({ where: { targetUserId: owner.userId } })).toBe(0);
  });

  it("a media link (the address of a shared video) and a creator page link resolve to their content", async () => {
    const owner = await visitor(t);
    const key = `out/shared-${owner.userId}.mp4`;
    const task = await sharedTask(owner.userId, { outputKey: key });
    const signed = await t.services.storage.signedUrl(key);
    const a = (await notice({ ...base, url: `https://any.host${signed}` }).expect(200)).body.data.id as number;
    expect(await t.db.report.findUniqueOrThrow({ where: { id: a } })).toMatchObject({ targetType: "task", targetId: task.id });
    const page = await t.db.creatorPage.create({ data: { userId: owner.userId, homeLink: `page${owner.userId}`, title: "Mine" } });
    const b = (await notice({ ...base, url: `https://reverie.example/page${owner.userId}`, reason: "impersonation" }).expect(200)).body.data.id as number;
    expect(await t.db.report.findUniqueOrThrow({ where: { id: b } })).toMatchObject({ targetType: "creator_page", targetId: page.id, reason: "impersonation" });
  });

  it("the console previews the reported file through a signed URL", async () => {
    const owner = await visitor(t);
    const key = `out/preview-${owner.userId}.mp4`;
    await t.services.storage.put(key, Buffer.from("not really a video"), "video/mp4");
    const task = await sharedTask(owner.userId, { outputKey: key });
    const id = (await notice({ ...base, url: `/home?item=${task.id}` }).expect(200)).body.data.id as number;
    const preview = await t.http.get(`/admin/api/reports/${id}/preview`).set("token", moderator.token).expect(200);
    expect(preview.body.media).toMatchObject({ kind: "video", url: expect.stringContaining("/api/media/file?") });
    const file = await t.http.get(preview.body.media.url).expect(200);
    expect(file.body.toString()).toBe("not really a video");
  });

  it("a reported video comes with its poster, and the queue row with that poster as its thumbnail (issue 35 item 7)", async () => {
    const owner = await visitor(t);
    const [key, posterKey] = [`out/posted-${owner.userId}.mp4`, `out/posted-${owner.userId}.webp`];
    await t.services.storage.put(key, Buffer.from("not really a video"), "video/mp4");
    await t.services.storage.put(posterKey, await photo(64, 36, "webp"), "image/webp");
    const task = await sharedTask(owner.userId, { outputKey: key, posterKey });
    const id = (await notice({ ...base, url: `/home?item=${task.id}` }).expect(200)).body.data.id as number;
    const preview = await t.http.get(`/admin/api/reports/${id}/preview`).set("token", moderator.token).expect(200);
    expect(preview.body.media).toMatchObject({ kind: "video", posterUrl: expect.stringContaining("/api/media/file?") });
    const poster = await t.http.get(preview.body.media.posterUrl).expect(200);
    expect(poster.headers["content-type"]).toMatch(/^image\//);
    const row = (await queue({ targetUserId: owner.userId }))[0];
    expect(row.thumbUrl).toEqual(expect.stringContaining("/api/media/file?"));
    await t.http.get(row.thumbUrl as string).expect(200);
    // content with no picture (an expired result) has no thumbnail, and the row still lists
    await t.db.generationTask.update({ where: { id: task.id }, data: { outputKey: null } });
    expect((await queue({ targetUserId: owner.userId }))[0]).toMatchObject({ id, thumbUrl: null });
  });
});

describe("time to action and transparency", () => {
  it("counts by reason, source and action, median and p90 time to action, breaches; as JSON and CSV, for staff only", async () => {
    // a period of its own, far ahead, so the other tests' reports stay out of it
    const start = Date.parse("2100-01-01T00:00:00Z");
    const from = new Date(start - 1000).toISOString();
    const owner = await visitor(t);
    const tasks = await Promise.all([1, 2, 3].map(() => sharedTask(owner.userId)));
    // resolved after 1 h, 2 h and 50 h (a breach)
    for (const [i, hours] of [1, 2, 50].entries()) {
      const id = (await notice({ ...base, url: `/home?item=${tasks[i].id}` }).expect(200)).body.data.id as number;
      await t.http.post(`/admin/api/reports/${id}/dismiss`).set("token", moderator.token).send({ reason: "Checked" }).expect(200);
      await t.db.report.update({ where: { id }, data: { createdAt: new Date(start), resolvedAt: new Date(start + hours * 3600_000) } });
    }
    const res = await t.http.get("/admin/api/transparency").query({ from }).set("token", moderator.token).expect(200);
    expect(res.body.time_to_action).toMatchObject({ resolved: 3, breaches: 1, target_hours: 48 });
    expect(res.body.time_to_action.median_seconds).toBe(2 * 3600);
    expect(res.body.time_to_action.p90_seconds).toBeGreaterThan(40 * 3600);
    expect(res.body.reports_by_source).toEqual([{ key: "notice", count: 3 }]);
    expect(res.body.reports_by_outcome).toEqual([{ key: "dismissed", count: 3 }]);
    const csv = await t.http.get("/admin/api/transparency").query({ from, format: "csv" }).set("token", moderator.token).expect(200);
    expect(csv.headers["content-type"]).toContain("text/csv");
    expect(csv.text.split("\n")).toEqual(expect.arrayContaining(["section,key,value", "reports_by_reason,non_consensual,3", "time_to_action,breaches,1"]));
    await t.http.get("/admin/api/transparency").query({ from: "yesterday" }).set("token", moderator.token).expect(400);
    const marketer = await staffMember(t, ["marketer"]);
    await t.http.get("/admin/api/transparency").set("token", marketer.token).expect(403);
  });
});
