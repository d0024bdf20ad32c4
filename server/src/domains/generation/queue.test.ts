import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import pg from "pg";
import { pino } from "pino";
import { expect, it } from "vitest";
import { createTestDb, testConfig } from "../../../../tests/db-utils.ts";
import { freePort } from "../../../../tests/net-utils.ts";
import { startEmbeddedPostgres } from "../../db/embedded.ts";
import { createGenerationQueue, GENERATION_DEAD_QUEUE, GENERATION_QUEUE, TRAINING_POLL_QUEUE } from "./queue.ts";

// A terminal's Ctrl-C reaches PostgreSQL as well as Reverie. If a job was running (a digest, an export), pg-boss's stop
// tried to hand it back as failed on a server already gone, and the whole stop ended as an error (exit 1).
it("stops after its PostgreSQL is gone while a job runs: a warning, no error, and the job stays for a retry", async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-queue-"));
  const port = await freePort();
  const server = await startEmbeddedPostgres(path.join(dir, "pg"), port);
  const lines: { level: number; msg: string }[] = [];
  const log = pino({ level: "info" }, new Writable({ write: (c, _e, cb) => (lines.push(JSON.parse(String(c))), cb()) }));
  const queue = createGenerationQueue({ url: server.url, config: testConfig(), log, role: "producer" });
  try {
    const boss = await queue.ready();
    await boss.createQueue("held", { name: "held" });
    const running = new Promise<void>((started) =>
      // the job never ends: were it to end after the stop, pg-boss 10 would write its completion unawaited into a closed pool
      boss.work("held", { batchSize: 1, pollingIntervalSeconds: 0.5 }, () => {
        started();
        return new Promise<void>(() => {});
      }),
    );
    const jobId = await boss.send("held", {});
    await running;

    // what Ctrl-C does to PostgreSQL: a fast shutdown (SIGINT), to its end
    await server.stop();

    await expect(queue.stop()).resolves.toBeUndefined();
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
    expect(lines.map((l) => l.msg)).toContain(
      "queue stopped without handing back its running jobs: the database server is gone; they run again once they expire",
    );

    // on the next start the job is still active, for pg-boss's expiry to retry
    const again = await startEmbeddedPostgres(path.join(dir, "pg"), port);
    try {
      const client = new pg.Client({ connectionString: again.url });
      await client.connect();
      const { rows } = await client.query("SELECT state FROM pgboss.job WHERE id = $1", [jobId]);
      await client.end();
      expect(rows).toEqual([{ state: "active" }]);
    } finally {
      await again.stop();
    }
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

// Issue 49: two API instances and two workers started together on an empty database all create the queues; PostgreSQL
// broke a deadlock between two create_queue calls by rolling one back, and that worker died at start.
it("four processes starting their queues at once on a fresh database all start, and each queue is made once", async () => {
  const testDb = await createTestDb();
  const log = pino({ level: "silent" });
  try {
    for (let round = 0; round < 5; round++) {
      await testDb.db.$executeRawUnsafe("DROP SCHEMA IF EXISTS pgboss CASCADE");
      const queues = (["producer", "producer", "worker", "worker"] as const).map((role) =>
        createGenerationQueue({ url: testDb.url, config: testConfig(), log, role }),
      );
      try {
        await Promise.all(queues.map((q) => q.ready()));
      } finally {
        await Promise.all(queues.map((q) => q.stop()));
      }
      const made = await testDb.db.$queryRawUnsafe<{ name: string }[]>("SELECT name FROM pgboss.queue ORDER BY name");
      expect(made.map((q) => q.name)).toEqual([GENERATION_QUEUE, GENERATION_DEAD_QUEUE, TRAINING_POLL_QUEUE].sort());
    }
  } finally {
    await testDb.drop();
  }
}, 120_000);
