import crypto from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { createTestApp, visitor } from "../../../tests/db-utils.ts";
import { photo } from "../../../tests/fixtures/media.ts";
import { GENERATION_TEST_ENV, grant, spawnWorkerProcess, startWorkerFor, waitForTask } from "../../../tests/generation-utils.ts";

/**
 * Issue 12 item 7: a worker killed mid-render has its task picked up by another worker within 30 s of its death,
 * with the production time-out (600 s) in force, and the two never run it at the same time.
 */
let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
  cleanups = [];
});

describe("a killed worker's task", () => {
  it("runs again on another worker within 30 s, once at a time, and succeeds once", async () => {
    // GENERATION_TIMEOUT_SECONDS stays at its default (600): recovery must not wait for it
    const t = await createTestApp({ ...GENERATION_TEST_ENV, QUEUE_MAINTENANCE_SECONDS: "30" });
    cleanups.push(t.close);
    const u = await visitor(t);
    await grant(t, u.userId, 10);
    const image = await t.http
      .post("/api/ImageUpload/upload")
      .set("token", u.token)
      .attach("file", await photo(640, 480), "p.jpg")
      .field("consent", "1")
      .expect(200);
    const child = await spawnWorkerProcess(t, { QUEUE_MAINTENANCE_SECONDS: "30" }, cleanups);

    const submitted = await t.http
      .post("/api/Generation/picVideoSubmit")
      .set("token", u.token)
      .send({ image_id: image.body.data.id, resolution: "480P", duration: 8 })
      .expect(200);
    const id: number = submitted.body.data.id;
    let first = await t.db.generationTask.findUniqueOrThrow({ where: { id } });
    for (let i = 0; first.status !== "running"; i++) {
      if (i > 600) throw new Error(`task never started: ${first.status}`);
      await new Promise((r) => setTimeout(r, 25));
      first = await t.db.generationTask.findUniqueOrThrow({ where: { id } });
    }
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
    const killedAt = Date.now();
    const rescuer = await startWorkerFor(t);
    cleanups.push(rescuer.stop);

    let recoveredAfterMs = -1;
    while (Date.now() - killedAt < 45_000) {
      const task = await t.db.generationTask.findUniqueOrThrow({ where: { id } });
      if (task.attempts >= 2 && task.status !== "queued") {
        recoveredAfterMs = Date.now() - killedAt;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(recoveredAfterMs, "the task was not picked up again within 45 s").toBeGreaterThan(0);
    expect(recoveredAfterMs).toBeLessThanOrEqual(30_000);
    const done = await waitForTask(t, id, 60_000);
    expect(done.status).toBe("succeeded");
    expect(await t.db.ledgerEntry.count({ where: { userId: u.userId, reason: "generation_refund" } })).toBe(0);
  }, 150_000);
});

describe("one run at a time", () => {
  it("a second start of a task whose worker is alive is refused; a recovered task's old attempt can neither beat, report nor complete", async () => {
    const t = await createTestApp({ ...GENERATION_TEST_ENV, GENERATION_HEARTBEAT_SECONDS: "1", GENERATION_STALE_SECONDS: "3" });
    cleanups.push(t.close);
    const u = await visitor(t);
    await grant(t, u.userId, 10);
    const { id } = await t.services.generation.images(u.userId, { prompt: "a fox", aspect: "1:1" }, false);
    const queued = await t.db.generationTask.findUniqueOrThrow({ where: { id } });
    expect(await t.services.generation.beginAttempt(id, crypto.randomUUID())).toBeNull(); // not this task's job
    const first = (await t.services.generation.beginAttempt(id, queued.jobId!))!;
    expect(first.attempts).toBe(1);
    // pg-boss delivering the same job again while the first run beats: refused
    expect(await t.services.generation.beginAttempt(id, queued.jobId!)).toBeNull();
    expect(await t.services.generation.heartbeat(first)).toBe(true);

    // the first run falls silent past the stale time: a sweep hands the task to a new job and cancels the old one
    await t.db.generationTask.update({ where: { id }, data: { heartbeatAt: new Date(Date.now() - 10_000) } });
    expect(await t.services.generation.recoverStalled()).toBe(1);
    const requeued = await t.db.generationTask.findUniqueOrThrow({ where: { id } });
    expect(requeued.status).toBe("queued");
    expect(requeued.jobId).not.toBe(queued.jobId);
    const oldJob = await t.db.$queryRaw<{ state: string }[]>`SELECT state::text FROM pgboss.job WHERE id = ${queued.jobId}::uuid`;
    expect(oldJob[0]?.state).toBe("cancelled");
    expect(await t.services.generation.beginAttempt(id, queued.jobId!)).toBeNull();
    const second = (await t.services.generation.beginAttempt(id, requeued.jobId!))!;
    expect(second.attempts).toBe(2);

    expect(await t.services.generation.heartbeat(first)).toBe(false);
    await t.services.generation.reportProgress(first, 50);
    expect(await t.services.generation.complete(first, { mainKey: "a", posterKey: "b", extraKeys: [], width: 1, height: 1 })).toBe(false);
    expect((await t.db.generationTask.findUniqueOrThrow({ where: { id } })).progress).toBe(0);
    expect(await t.services.generation.complete(second, { mainKey: "a", posterKey: "b", extraKeys: [], width: 1, height: 1 })).toBe(true);
  });
});
