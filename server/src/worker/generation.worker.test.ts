import type { ChildProcess } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../tests/db-utils.ts";
import { photo } from "../../../tests/fixtures/media.ts";
import { GENERATION_TEST_ENV, grant, spawnWorkerProcess, startWorkerFor, waitForTask } from "../../../tests/generation-utils.ts";

/**
 * A worker process killed (SIGKILL) in the middle of a render: pg-boss expires the job after the time-out, or the
 * stale-heartbeat sweep finds it, then it is retried by another worker or, with no retries left, dead-lettered and
 * failed with a refund.
 */
const TIMEOUT_SECONDS = "8";
/**
 * With retries left, the kill is found by its silent heartbeat within seconds, and the retry has a minute to render:
 * a retry that does not succeed is then a defect, not a loaded machine.
 */
const RETRYABLE = { GENERATION_RETRY_LIMIT: "1", GENERATION_TIMEOUT_SECONDS: "60", GENERATION_HEARTBEAT_SECONDS: "1", GENERATION_STALE_SECONDS: "3" };
const LAST_TRY = { GENERATION_RETRY_LIMIT: "0", GENERATION_TIMEOUT_SECONDS: TIMEOUT_SECONDS };

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
  cleanups = [];
});

function spawnWorker(t: TestApp, env: Record<string, string>): Promise<ChildProcess> {
  return spawnWorkerProcess(t, env, cleanups);
}

async function killMidRender(env: Record<string, string>) {
  const t = await createTestApp({ ...GENERATION_TEST_ENV, ...env });
  cleanups.push(t.close);
  const u = await visitor(t);
  await grant(t, u.userId, 10);
  const image = await t.http
    .post("/api/ImageUpload/upload")
    .set("token", u.token)
    .attach("file", await photo(640, 480), "p.jpg")
    .field("consent", "1")
    .expect(200);
  const child = await spawnWorker(t, env);

  const submitted = await t.http
    .post("/api/Generation/picVideoSubmit")
    .set("token", u.token)
    .send({ image_id: image.body.data.id, resolution: "480P", duration: 8 })
    .expect(200);
  const id: number = submitted.body.data.id;
  for (let i = 0; ; i++) {
    const task = await t.db.generationTask.findUniqueOrThrow({ where: { id } });
    if (task.status === "running") break;
    if (i > 600) throw new Error(`task never started: ${task.status}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  child.kill("SIGKILL");
  await new Promise((r) => child.once("exit", r));
  expect((await t.db.generationTask.findUniqueOrThrow({ where: { id } })).status).toBe("running");

  const worker = await startWorkerFor(t);
  cleanups.push(worker.stop);
  const task = await waitForTask(t, id, 40_000);
  const refunds = await t.db.ledgerEntry.count({ where: { userId: u.userId, reason: "generation_refund" } });
  const balance = (await t.services.credits.balance(u.userId)).points;
  return { task, refunds, balance, cost: submitted.body.data.cost as number };
}

describe("a worker killed mid-task", () => {
  it("is retried by another worker when retries remain", async () => {
    const { task, refunds, balance, cost } = await killMidRender(RETRYABLE);
    expect({ status: task.status, attempts: task.attempts, refunds, balance }).toEqual({ status: "succeeded", attempts: 2, refunds: 0, balance: 10 - cost });
    expect(task.outputKey).toBeTruthy();
  }, 90_000);

  it("is failed and refunded exactly once when no retry remains", async () => {
    const { task, refunds, balance } = await killMidRender(LAST_TRY);
    expect(task.status).toBe("failed");
    expect(task.attempts).toBe(1);
    expect(refunds).toBe(1);
    expect(balance).toBe(10);
  }, 90_000);
});
