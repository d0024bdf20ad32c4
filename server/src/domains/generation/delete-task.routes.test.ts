import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TaskStatus } from "../../db/generated/client.ts";
import { MSG } from "../../http/messages.ts";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function task(userId: number, status: TaskStatus) {
  return t.db.generationTask.create({ data: { userId, mode: "image_to_video", engine: "local", status, cost: 1, input: {} } });
}

describe("POST /api/Generation/deleteTask", () => {
  it("removes the caller's finished item, once", async () => {
    const { token, userId } = await visitor(t);
    const done = await task(userId, "succeeded");
    const failed = await task(userId, "failed");
    await t.http.post("/api/Generation/deleteTask").set("token", token).send({ id: done.id }).expect(200);
    await t.http.post("/api/Generation/deleteTask").set("token", token).send({ id: failed.id }).expect(200);
    expect((await t.db.generationTask.findUniqueOrThrow({ where: { id: done.id } })).state).toBe("removed");
    const again = await t.http.post("/api/Generation/deleteTask").set("token", token).send({ id: done.id }).expect(404);
    expect(again.body.msg).toBe("The access resource does not exist");
  });

  it("refuses an item still rendering, and changes nothing", async () => {
    const { token, userId } = await visitor(t);
    for (const status of ["queued", "running"] as const) {
      const busy = await task(userId, status);
      const res = await t.http.post("/api/Generation/deleteTask").set("token", token).send({ id: busy.id }).expect(409);
      expect(res.body.msg).toBe("A product still generating: try later");
      expect((await t.db.generationTask.findUniqueOrThrow({ where: { id: busy.id } })).state).toBe("active");
    }
  });

  it("answers 404 for another user's item and leaves it alone", async () => {
    const owner = await visitor(t);
    const other = await visitor(t);
    const theirs = await task(owner.userId, "succeeded");
    await t.http.post("/api/Generation/deleteTask").set("token", other.token).send({ id: theirs.id }).expect(404);
    expect((await t.db.generationTask.findUniqueOrThrow({ where: { id: theirs.id } })).state).toBe("active");
  });

  it("needs a login and a task id", async () => {
    await t.http.post("/api/Generation/deleteTask").send({ id: 1 }).expect(401);
    const { token } = await visitor(t);
    const res = await t.http.post("/api/Generation/deleteTask").set("token", token).send({ id: "x" }).expect(400);
    expect(res.body.msg).toBe("id must be a task id");
  });
});

describe("ids beyond the database's integer", () => {
  it("are bad input (400), not a server error, on a read and on a change", async () => {
    const { token } = await visitor(t);
    for (const id of ["2147483648", "99999999999"]) {
      const details = await t.http.get(`/api/Generation/picVideoSubmitDetails?id=${id}`).set("token", token).expect(400);
      expect(details.body.msg).toBe(MSG.badRequest);
      await t.http
        .post("/api/Generation/deleteTask")
        .set("token", token)
        .send({ id: Number(id) })
        .expect(400);
    }
  });
});
