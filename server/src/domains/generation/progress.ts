import pg from "pg";
import type { Logger } from "pino";
import type { Db, Tx } from "../../db/client.ts";

/** NOTIFY channel carrying task status and percentage to every API instance. */
export const PROGRESS_CHANNEL = "reverie_generation_progress";

export interface ProgressEvent {
  taskId: number;
  userId: number;
  /** Raw task status (queued, running, succeeded, failed, expired). */
  status: string;
  progress: number;
}

/** Publishes through PostgreSQL, so a browser connected to any API instance hears it. */
export async function publishProgress(db: Db | Tx, e: ProgressEvent): Promise<void> {
  await db.$executeRaw`SELECT pg_notify(${PROGRESS_CHANNEL}, ${JSON.stringify(e)})`;
}

type Listener = (e: ProgressEvent) => void;

/**
 * One LISTEN connection per process, fanned out to the SSE streams it serves. Connects on first use and
 * reconnects after a lost connection (events sent meanwhile are covered by each stream's snapshot on connect).
 */
export function createProgressHub(databaseUrl: string | undefined, log: Logger) {
  const listeners = new Set<Listener>();
  let client: pg.Client | undefined;
  let connecting: Promise<void> | undefined;
  let closed = false;

  async function connect() {
    if (!databaseUrl) throw new Error("live progress needs the database URL");
    const c = new pg.Client({ connectionString: databaseUrl, application_name: "reverie-progress" });
    c.on("notification", (n) => {
      if (n.channel !== PROGRESS_CHANNEL || !n.payload) return;
      let e: ProgressEvent;
      try {
        e = JSON.parse(n.payload) as ProgressEvent;
      } catch {
        return;
      }
      for (const l of listeners) l(e);
    });
    c.on("error", (err) => {
      log.warn({ err }, "progress listener lost its connection");
      client = undefined;
      connecting = undefined;
      void c.end().catch(() => undefined);
      if (!closed && listeners.size) setTimeout(() => void ensure().catch(() => undefined), 500).unref();
    });
    await c.connect();
    await c.query(`LISTEN ${PROGRESS_CHANNEL}`);
    client = c;
  }

  function ensure() {
    return (connecting ??= connect().catch((err) => {
      connecting = undefined;
      throw err;
    }));
  }

  return {
    async subscribe(listener: Listener): Promise<() => void> {
      listeners.add(listener);
      await ensure();
      return () => listeners.delete(listener);
    },
    async close() {
      closed = true;
      listeners.clear();
      await client?.end().catch(() => undefined);
    },
  };
}

export type ProgressHub = ReturnType<typeof createProgressHub>;
