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

/** NOTIFY channel saying that logins ended (a ban, a logout): every instance closes those logins' open streams. */
export const SESSION_ENDED_CHANNEL = "reverie_session_ended";

/** Either one login (a logout) or every login of an account (a ban, a merge). */
export type SessionEndedEvent = { sessionId: number } | { userId: number };

/** Sent inside the caller's transaction when it has one: delivered only if the revocation commits. */
export async function publishSessionEnded(db: Db | Tx, e: SessionEndedEvent): Promise<void> {
  await db.$executeRaw`SELECT pg_notify(${SESSION_ENDED_CHANNEL}, ${JSON.stringify(e)})`;
}

/** Publishes through PostgreSQL, so a browser connected to any API instance hears it. */
export async function publishProgress(db: Db | Tx, e: ProgressEvent): Promise<void> {
  await db.$executeRaw`SELECT pg_notify(${PROGRESS_CHANNEL}, ${JSON.stringify(e)})`;
}

type Listener = (e: ProgressEvent) => void;
type EndedListener = (e: SessionEndedEvent) => void;

/**
 * One LISTEN connection per process, fanned out to the SSE streams it serves. Connects on first use and
 * reconnects after a lost connection (events sent meanwhile are covered by each stream's snapshot on connect).
 */
export function createProgressHub(databaseUrl: string | undefined, log: Logger) {
  const listeners = new Set<Listener>();
  const endedListeners = new Set<EndedListener>();
  let client: pg.Client | undefined;
  let connecting: Promise<void> | undefined;
  let closed = false;

  async function connect() {
    if (!databaseUrl) throw new Error("live progress needs the database URL");
    const c = new pg.Client({ connectionString: databaseUrl, application_name: "reverie-progress" });
    c.on("notification", (n) => {
      if (!n.payload) return;
      let e: unknown;
      try {
        e = JSON.parse(n.payload);
      } catch {
        return;
      }
      if (n.channel === PROGRESS_CHANNEL) for (const l of listeners) l(e as ProgressEvent);
      else if (n.channel === SESSION_ENDED_CHANNEL) for (const l of endedListeners) l(e as SessionEndedEvent);
    });
    c.on("error", (err) => {
      log.warn({ err }, "progress listener lost its connection");
      client = undefined;
      connecting = undefined;
      void c.end().catch(() => undefined);
      if (!closed && listeners.size) setTimeout(() => void ensure().catch(() => undefined), 500).unref();
    });
    await c.connect();
    await c.query(`LISTEN ${PROGRESS_CHANNEL}; LISTEN ${SESSION_ENDED_CHANNEL}`);
    client = c;
  }

  function ensure() {
    return (connecting ??= connect().catch((err) => {
      connecting = undefined;
      throw err;
    }));
  }

  return {
    /** `ended` hears every ended login, so a stream can close when its own login or account is ended. */
    async subscribe(listener: Listener, ended?: EndedListener): Promise<() => void> {
      listeners.add(listener);
      if (ended) endedListeners.add(ended);
      await ensure();
      return () => {
        listeners.delete(listener);
        if (ended) endedListeners.delete(ended);
      };
    },
    async close() {
      closed = true;
      listeners.clear();
      endedListeners.clear();
      await client?.end().catch(() => undefined);
    },
  };
}

export type ProgressHub = ReturnType<typeof createProgressHub>;
