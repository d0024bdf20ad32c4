import pg from "pg";
import type PgBoss from "pg-boss";
import type { Logger } from "pino";
import type { Config } from "../../config.ts";
import type { SqlTx, Tx } from "../../db/client.ts";
import { logConnectionEnded, serverGone } from "../../logger.ts";
import { JOB_WAKEUP_CHANNEL, notify } from "./generation.queries.ts";

export const GENERATION_QUEUE = "generation";
/** PostgreSQL's SQLSTATE for a connection ended by the server shutting down ("terminating connection due to administrator command"). */
const ADMIN_SHUTDOWN = "57P01";
/** Jobs that used up their retries (including ones whose worker died) land here to be failed and refunded. */
export const GENERATION_DEAD_QUEUE = "generation-dead";

/** Character-model trainings still running are polled here: the fallback when a trainer's webhook does not arrive. */
export const TRAINING_POLL_QUEUE = "training-poll";

export interface TrainingPollData {
  modelId: number;
}

export interface GenerationJobData {
  taskId: number;
  /** This job's own id, which the task names while this job is the one entitled to run it (absent in older jobs). */
  jobId?: string;
}

/**
 * pg-boss on Reverie's own PostgreSQL. Producers send inside the caller's Prisma transaction (pg-boss's `db`
 * executor option), so a task's charge and its job commit or roll back together.
 */
export function createGenerationQueue(o: { url: string; config: Config; log: Logger; role: "producer" | "worker" }) {
  const isWorker = o.role === "worker";
  let boss: PgBoss | undefined;
  /** pg-boss's connections, ours to close (see {@link closablePool}). */
  let pool: ReturnType<typeof closablePool> | undefined;
  const options: Omit<PgBoss.ConstructorOptions, "db"> = {
    // only workers supervise (expire stuck jobs into retry / dead letter); producers just insert
    supervise: isWorker,
    schedule: false,
    maintenanceIntervalSeconds: o.config.QUEUE_MAINTENANCE_SECONDS,
  };
  let starting: Promise<PgBoss> | undefined;
  let stopping = false;

  // pg-boss is loaded on first use, so an API process pays for it only when someone submits
  async function start(): Promise<PgBoss> {
    const { default: PgBossClass } = await import("pg-boss");
    const onError = (err: Error) => {
      // main.ts stops the queues before the embedded PostgreSQL, but a terminal's Ctrl-C signals PostgreSQL too, which then
      // ends every connection with 57P01 whatever the order; the pool reopens them if the server comes back. While the
      // queue stops, a server already gone is that same Ctrl-C (see stop()). Said once, not once per pooled connection.
      if ((err as { code?: string }).code === ADMIN_SHUTDOWN || (stopping && serverGone(err))) logConnectionEnded(o.log, `${o.role} queue`, err);
      else o.log.error({ err }, "queue error");
    };
    pool = closablePool({ connectionString: o.url, max: isWorker ? Math.max(2, o.config.WORKER_CONCURRENCY + 1) : 2, application_name: `reverie-${o.role}` });
    pool.pool.on("error", onError);
    const db = pool.pool;
    boss = new PgBossClass({ ...options, db: { executeSql: (text, values) => db.query(text, values) } });
    boss.on("error", onError);
    await boss.start();
    await createQueueOnce(boss, GENERATION_DEAD_QUEUE, { retryLimit: 5, retryDelay: 1 });
    await createQueueOnce(boss, GENERATION_QUEUE, { deadLetter: GENERATION_DEAD_QUEUE });
    await createQueueOnce(boss, TRAINING_POLL_QUEUE);
    return boss;
  }

  return {
    /** The started pg-boss instance. */
    ready: () => (starting ??= start()),
    /** Enqueues a task's job, with the id the task records, inside `tx`; the NOTIFY is delivered only if that transaction commits. */
    async send(tx: Tx | SqlTx, taskId: number, jobId: string): Promise<string> {
      const boss = await this.ready();
      const id = await boss.send(GENERATION_QUEUE, { taskId, jobId } satisfies GenerationJobData, {
        id: jobId,
        db: executorFor(tx),
        retryLimit: o.config.GENERATION_RETRY_LIMIT,
        retryDelay: o.config.GENERATION_RETRY_DELAY_SECONDS,
        expireInSeconds: o.config.GENERATION_TIMEOUT_SECONDS,
      });
      if (!id) throw new Error(`task ${taskId} already has a job`);
      await notify.rows(tx, { channel: JOB_WAKEUP_CHANNEL, payload: String(taskId) });
      return id;
    },
    /** Cancels a job inside `tx` (a task recovered from a dead worker gets a new one; the old must never run again). */
    async cancel(tx: Tx, jobId: string): Promise<void> {
      const boss = await this.ready();
      await boss.cancel(GENERATION_QUEUE, jobId, { db: executorFor(tx) });
    },
    /** Polls a training `afterSeconds` from now; inside `tx` when given, so the poll exists exactly when the model does. */
    async sendTrainingPoll(tx: Tx | null, modelId: number, afterSeconds: number): Promise<void> {
      const boss = await this.ready();
      await boss.send(TRAINING_POLL_QUEUE, { modelId } satisfies TrainingPollData, {
        ...(tx ? { db: executorFor(tx) } : {}),
        startAfter: afterSeconds,
        retryLimit: 5,
        retryDelay: afterSeconds,
        expireInSeconds: 15 * 60,
      });
    },
    /** Workers let running renders finish (up to 20 s); whatever is still running then is failed back to pg-boss for a retry elsewhere. */
    async stop() {
      if (!starting) return;
      stopping = true;
      await starting.catch(() => undefined);
      try {
        await boss?.stop({ graceful: isWorker, timeout: 20_000, wait: true });
      } catch (err) {
        // pg-boss hands the jobs still running back as failed as it stops. After a terminal's Ctrl-C, which reaches
        // PostgreSQL too, the server may be gone by then: those jobs stay active and expire into a retry
        // (expireInSeconds), as after a crash. Stopping on purpose is no failure.
        if (!serverGone(err)) throw err;
        const { code, message } = err as { code?: string; message?: string };
        o.log.warn(
          { code, reason: message },
          "queue stopped without handing back its running jobs: the database server is gone; they run again once they expire",
        );
      }
      await pool?.end();
    },
  };
}

export type GenerationQueue = ReturnType<typeof createGenerationQueue>;

/** pg-boss's `db` option: its SQL runs inside the caller's transaction (Prisma's, or pg's). */
function executorFor(tx: Tx | SqlTx) {
  return {
    // pg-boss's own parameterised SQL; values are bound, never spliced into the text
    executeSql: async (text: string, values: unknown[]) =>
      "$queryRawUnsafe" in tx
        ? { rows: await tx.$queryRawUnsafe<Record<string, unknown>[]>(text, ...values.map(toParam)) }
        : { rows: (await tx.query(text, values.map(toParam))).rows },
  };
}

/**
 * pg's Pool.end() resolves once its clients are told to end, before their sockets close: PostgreSQL stopped right after
 * (main.ts's shutdown) would still find them open and end them with an error. `end()` also waits until every connection
 * the pool opened has closed (pg-pool emits 'remove' once its socket has). A connection refused while the server stops
 * never opened and is not waited for: counting the pool's clients instead would wait for it forever.
 */
function closablePool(options: pg.PoolConfig) {
  const pool = new pg.Pool(options);
  let open = 0;
  let allClosed: (() => void) | undefined;
  pool.on("connect", () => void open++);
  pool.on("remove", () => {
    if (--open === 0) allClosed?.();
  });
  return {
    pool,
    async end(): Promise<void> {
      const closed = new Promise<void>((resolve) => (allClosed = resolve));
      await pool.end();
      if (open > 0) await closed;
    },
  };
}

/** PostgreSQL's SQLSTATE for a transaction it rolled back to break a deadlock. */
const DEADLOCK = "40P01";

/**
 * Creates a queue unless another process made it first. pg-boss's create_queue inserts the queue's row and attaches a
 * table of its own: processes creating queues at the same moment (instances and workers started together on an empty
 * database) can deadlock, and PostgreSQL rolls one of them back — a worker then died at start (issue 49). That one
 * tries again, and finds the queue made.
 */
export async function createQueueOnce(boss: PgBoss, name: string, options: Omit<PgBoss.Queue, "name"> = {}): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await boss.createQueue(name, { ...options, name });
      return;
    } catch (err) {
      if (/already exists/i.test((err as Error).message)) return;
      if ((err as { code?: string }).code !== DEADLOCK || attempt === 5) throw err;
    }
  }
}

function toParam(v: unknown): unknown {
  if (v === undefined) return null;
  // id lists (cancel) are PostgreSQL arrays; other objects are pg-boss's JSON values
  if (Array.isArray(v)) return v;
  if (v !== null && typeof v === "object" && !(v instanceof Date)) return JSON.stringify(v);
  return v;
}
