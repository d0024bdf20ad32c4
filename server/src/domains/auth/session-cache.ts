import crypto from "node:crypto";
import type { Logger } from "pino";
import type pg from "pg";
import { createListenHub, listenerName } from "../../db/listen-hub.ts";

/** The channel migration 0184's triggers notify on every committed change to a sessions, users or staff row. */
export const SESSION_CACHE_CHANNEL = "reverie_session_cache";

/**
 * Whose rows changed; or this module's own markers: `barrier` (see `settled`; with `everyone`, every instance answers
 * it with `ack`, see `settledEverywhere`).
 */
type Change = { userId?: number; staffId?: number; barrier?: string; everyone?: boolean; ack?: string };

/** A read of the database in flight: what the cache knew when it started. */
export interface Ticket {
  seq: number;
  epoch: number;
  at: number;
}

/** The answers to one marker of settledEverywhere: `expected` is known once the marker is sent. */
interface Answers {
  received: number;
  expected: number | null;
  done: (all: boolean) => void;
}

/** How long an invalidation is remembered for reads that started before it; a slower read is not kept at all. */
const RACE_WINDOW_MS = 10_000;
/** How long a writer waits for its own notification to come back before answering anyway. */
const BARRIER_TIMEOUT_MS = 2_000;
/** A failed LISTEN is tried again on a later request, at most this often. */
const RETRY_MS = 1_000;

const ownerKey = (c: { userId?: number | null; staffId?: number | null }) => (c.userId != null ? `u:${c.userId}` : c.staffId != null ? `t:${c.staffId}` : null);

/**
 * Resolved logins by token hash, so that an authenticated request makes no session query (docs/decisions/221).
 * Kept correct by PostgreSQL: the triggers of migration 0184 notify every committed change to a login's session, user
 * or staff row, and each instance drops that owner's entries when the notification arrives. Nothing is kept while
 * the LISTEN connection is down, and everything is dropped when it comes back (what was sent meanwhile is lost).
 * A read that was in flight when its owner's change arrived is not kept (`begin` / `keep`), and entries expire after
 * `ttlMs` whatever happens, which bounds the harm of a connection that died without saying so.
 */
export function createSessionCache<T>(o: { databaseUrl: string | undefined; pool: () => pg.Pool; log: Logger; maxEntries: number; ttlMs: number }) {
  const entries = new Map<string, { value: T; owner: string; at: number }>();
  const byOwner = new Map<string, Set<string>>();
  /** invalidations, newest last, for the reads that started before them */
  let recent: { seq: number; owner: string; at: number }[] = [];
  let seq = 0;
  /** changes on every LISTEN up or down: a read that saw another epoch is not kept */
  let epoch = 0;
  let listening = false;
  let lastTry = 0;
  const barriers = new Map<string, (heard: boolean) => void>();
  /** markers sent by settledEverywhere: answers still awaited */
  const acks = new Map<string, Answers>();
  /** callers of `settled` that no marker has been sent for yet */
  let waiting: ((heard: boolean) => void)[] = [];
  let sending = false;

  const clear = () => {
    entries.clear();
    byOwner.clear();
    recent = [];
  };

  function forget(owner: string) {
    const now = Date.now();
    recent.push({ seq: ++seq, owner, at: now });
    while (recent.length && now - recent[0]!.at > RACE_WINDOW_MS) recent.shift();
    const hashes = byOwner.get(owner);
    if (!hashes) return;
    byOwner.delete(owner);
    for (const h of hashes) entries.delete(h);
  }

  function remove(hash: string) {
    const e = entries.get(hash);
    if (!e) return;
    entries.delete(hash);
    byOwner.get(e.owner)?.delete(hash);
  }

  const hub = o.maxEntries > 0 && o.databaseUrl
    ? createListenHub<Change>(SESSION_CACHE_CHANNEL, o.databaseUrl, o.log, (up) => {
        epoch++;
        listening = up;
        clear();
        // a marker sent on the lost connection will not come back on the new one
        for (const done of barriers.values()) done(false);
        for (const a of acks.values()) a.done(false);
      })
    : undefined;

  /** A promise settled through `map.get(key)` (or false after BARRIER_TIMEOUT_MS); `entry` wraps the resolver. */
  function awaited<V>(map: Map<string, V>, key: string, entry: (done: (ok: boolean) => void) => V): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), BARRIER_TIMEOUT_MS).unref();
      map.set(
        key,
        entry((ok) => {
          clearTimeout(timer);
          resolve(ok);
        }),
      );
    });
  }

  /** One marker at a time, for everyone who asked before it was sent. */
  async function sendMarkers() {
    sending = true;
    while (waiting.length) {
      const batch = waiting;
      waiting = [];
      const marker = crypto.randomBytes(8).toString("hex");
      const back = awaited(barriers, marker, (done) => done);
      const heard = (await notify({ barrier: marker })) !== null && (await back);
      barriers.delete(marker);
      for (const done of batch) done(heard);
    }
    sending = false;
  }

  /** Sends `payload` on the channel; null when the database did not take it, else (when asked) how many instances listen. */
  async function notify(payload: Change, countListeners = false): Promise<number | null> {
    try {
      const values = [SESSION_CACHE_CHANNEL, JSON.stringify(payload)];
      if (!countListeners) {
        await o.pool().query({ name: "session-cache-notify", text: "SELECT pg_notify($1, $2)", values });
        return 0;
      }
      const { rows } = await o.pool().query<{ listeners: number }>({
        name: "session-cache-notify-count",
        text: "SELECT pg_notify($1, $2), (SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database() AND application_name = $3) AS listeners",
        values: [...values, listenerName(SESSION_CACHE_CHANNEL)],
      });
      return rows[0]!.listeners;
    } catch (err) {
      o.log.warn({ err }, "session cache: marker not sent");
      return null;
    }
  }

  function onChange(c: Change) {
    if (c.barrier) barriers.get(c.barrier)?.(true);
    // answered after everything before the marker was applied: notifications are handled one by one, in order
    if (c.barrier && c.everyone) void notify({ ack: c.barrier });
    const answers = c.ack ? acks.get(c.ack) : undefined;
    if (answers && ++answers.received >= (answers.expected ?? Number.POSITIVE_INFINITY)) answers.done(true);
    const owner = ownerKey(c);
    if (owner) forget(owner);
  }

  function listen() {
    if (!hub || listening || Date.now() - lastTry < RETRY_MS) return;
    lastTry = Date.now();
    hub.subscribe(onChange).catch((err) => o.log.warn({ err }, "session cache: LISTEN failed; logins are read from the database"));
  }

  return {
    /** The login kept for this token hash, or undefined (also while not listening). */
    get(hash: string): T | undefined {
      if (!listening) {
        listen();
        return undefined;
      }
      const e = entries.get(hash);
      if (!e) return undefined;
      if (Date.now() - e.at > o.ttlMs) {
        remove(hash);
        return undefined;
      }
      return e.value;
    },

    /** Call before reading a login from the database; hand the ticket to `keep` with what was read. */
    begin(): Ticket {
      return { seq, epoch, at: Date.now() };
    },

    /** Keeps what a read found, unless its owner changed (or the LISTEN connection came or went) since `begin`. */
    keep(hash: string, who: { userId?: number | null; staffId?: number | null }, value: T, t: Ticket) {
      const owner = ownerKey(who);
      const now = Date.now();
      if (!owner || !listening || t.epoch !== epoch || now - t.at > RACE_WINDOW_MS) return;
      if (recent.some((r) => r.seq > t.seq && r.owner === owner)) return;
      entries.set(hash, { value, owner, at: now });
      let set = byOwner.get(owner);
      if (!set) byOwner.set(owner, (set = new Set()));
      set.add(hash);
      if (entries.size > o.maxEntries) remove(entries.keys().next().value!);
    },

    /** Drops this account's or staff member's logins here at once (the notification drops them everywhere). */
    forget(who: { userId?: number; staffId?: number }) {
      const owner = ownerKey(who);
      if (owner) forget(owner);
    },

    /**
     * Resolves true once this instance has heard every change committed before the call: PostgreSQL delivers
     * notifications in commit order, so a marker sent after the call arrives after them. False when that could not
     * be known (not listening, the marker lost): then only the database knows. Callers waiting at the same time share
     * one marker, and a marker already on its way does not count for a later caller (it may have been sent before
     * that caller's moment).
     */
    settled(): Promise<boolean> {
      if (!listening) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => {
        waiting.push(resolve);
        if (!sending) void sendMarkers();
      });
    },

    /**
     * Resolves true once every listening instance has applied every change committed before the call: each answers
     * the marker after handling what came before it, and the writer counts the answers against the LISTEN connections
     * PostgreSQL reports. For the rare writes that end or change a login (a logout, a console change), so that the very
     * next request, on any instance, sees them. False after BARRIER_TIMEOUT_MS (an instance that did not answer).
     */
    async settledEverywhere(): Promise<boolean> {
      if (!listening) return false;
      const marker = crypto.randomBytes(8).toString("hex");
      const answers: Answers = { received: 0, expected: null, done: () => {} };
      const back = awaited(acks, marker, (done) => Object.assign(answers, { done }));
      answers.expected = await notify({ barrier: marker, everyone: true }, true);
      if (answers.expected === null) answers.done(false);
      else if (answers.received >= answers.expected) answers.done(true);
      const all = await back;
      acks.delete(marker);
      return all;
    },

    /** For tests and the bench: how many logins are kept. */
    get size() {
      return entries.size;
    },

    async close() {
      clear();
      await hub?.close();
    },
  };
}

export type SessionCache<T> = ReturnType<typeof createSessionCache<T>>;
