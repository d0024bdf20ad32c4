import pg from "pg";
import type { Logger } from "pino";
import { logConnectionEnded, serverGone, stopHasBegun } from "../logger.ts";

/**
 * One LISTEN connection per process and channel, fanned out to in-process listeners (SSE streams, running chat
 * replies). Connects on first use and reconnects after a lost connection; what was sent meanwhile is each user's to
 * recover from the database (their snapshot on connect). `onConnection` hears when the LISTEN starts and when the
 * connection is lost: whoever keeps state that notifications keep fresh must not trust it in between.
 */
export function createListenHub<E>(channel: string, databaseUrl: string | undefined, log: Logger, onConnection?: (listening: boolean) => void) {
  const listeners = new Set<(e: E) => void>();
  let client: pg.Client | undefined;
  let connecting: Promise<void> | undefined;
  let closed = false;

  async function connect() {
    if (!databaseUrl) throw new Error(`LISTEN ${channel} needs the database URL`);
    const c = new pg.Client({ connectionString: databaseUrl, application_name: `reverie-${channel}` });
    c.on("notification", (n) => {
      if (n.channel !== channel || !n.payload) return;
      let e: E;
      try {
        e = JSON.parse(n.payload) as E;
      } catch {
        return;
      }
      for (const l of listeners) l(e);
    });
    let lost = false;
    const onLost = (err?: Error) => {
      if (lost) return;
      lost = true;
      if (!closed && (serverGone(err) || stopHasBegun())) logConnectionEnded(log, `${channel} listener`, err);
      else if (!closed) log.warn({ err, channel }, "listener lost its connection");
      client = undefined;
      connecting = undefined;
      onConnection?.(false);
      void c.end().catch(() => undefined);
      if (!closed && listeners.size) setTimeout(() => void ensure().catch(() => undefined), 500).unref();
    };
    c.on("error", onLost);
    c.on("end", () => onLost());
    await c.connect();
    // what this connection commits (a LISTEN, a published marker) needs no flush to disk: a notification does not
    // survive a crash anyway, and a NOTIFY commit holds PostgreSQL's database-wide notify lock until it is done
    await c.query("SET synchronous_commit = off");
    await c.query(`LISTEN ${channel}`);
    client = c;
    onConnection?.(true);
  }

  function ensure() {
    return (connecting ??= connect().catch((err) => {
      connecting = undefined;
      throw err;
    }));
  }

  return {
    async subscribe(listener: (e: E) => void): Promise<() => void> {
      listeners.add(listener);
      await ensure();
      return () => listeners.delete(listener);
    },
    /** Sends `payload` on the channel through the listening connection itself; this process hears it too, in order. */
    async publish(payload: unknown): Promise<void> {
      await ensure();
      await client!.query({ name: "listen-hub-publish", text: "SELECT pg_notify($1, $2)", values: [channel, JSON.stringify(payload)] });
    },

    async close() {
      closed = true;
      listeners.clear();
      await client?.end().catch(() => undefined);
    },
  };
}

export type ListenHub<E> = ReturnType<typeof createListenHub<E>>;
