import crypto from "node:crypto";
import type { Logger } from "pino";
import { createListenHub } from "../../db/listen-hub.ts";

/** The channel migration 0184's triggers notify on every committed change to a sessions, users or staff row. */
export const SESSION_CACHE_CHANNEL = "reverie_session_cache";

/** Whose rows changed, or a marker of this module (see `settled`). */
type Change = { userId?: number; staffId?: number; marker?: string };

/** A read of the database in flight: what the cache knew when it started. */
export interface Ticket {
  seq: number;
  epoch: number;
  at: number;
}

/** How long an invalidation is remembered for reads that started before it; a slower read is not kept at all. */
const RACE_WINDOW_MS = 10_000;
/** How long a marker may take to come back before the database is asked instead. */
const MARKER_TIMEOUT_MS = 2_000;
/** A failed LISTEN is tried again on a later request, at most this often. */
const RETRY_MS = 1_000;

const ownerKey = (c: { userId?: number | null; staffId?: number | null }) => (c.userId != null ? `u:${c.userId}` : c.staffId != null ? `t:${c.staffId}` : null);

/**
 * Resolved logins by token hash, so that an authenticated request makes no session query (docs/decisions/221).
 * The triggers of migration 0184 notify every committed change to a login's session, user or staff row, and each
 * instance drops that owner's entries when the notification arrives. A kept login is used only after `settled`:
 * a marker sent after the request arrived has come back, so every change committed before the request has been
 * applied, on this instance, whoever made it. Nothing is kept while the LISTEN connection is down, everything is
 * dropped when it comes back, a read overtaken by its owner's change is not kept (`begin` / `keep`), and entries
 * expire after `ttlMs` whatever happens.
 */
export function createSessionCache<T>(o: { databaseUrl: string | undefined; log: Logger; maxEntries: number; ttlMs: number }) {
  const entries = createOwnedEntries<T>();
  /** invalidations, newest last, for the reads that started before them */
  let recent: { seq: number; owner: string; at: number }[] = [];
  let seq = 0;
  /** changes on every LISTEN up or down: a read that saw another epoch is not kept */
  let epoch = 0;
  let listening = false;
  let lastTry = 0;

  const clear = () => {
    entries.clear();
    recent = [];
  };

  function forget(owner: string) {
    const now = Date.now();
    recent.push({ seq: ++seq, owner, at: now });
    while (recent.length && now - recent[0]!.at > RACE_WINDOW_MS) recent.shift();
    entries.removeOwner(owner);
  }

  const markers = createMarkers((marker) => hub!.publish({ marker }), o.log);
  const hub =
    o.maxEntries > 0 && o.databaseUrl
      ? createListenHub<Change>(SESSION_CACHE_CHANNEL, o.databaseUrl, o.log, (up) => {
          epoch++;
          listening = up;
          clear();
          markers.lost();
        })
      : undefined;

  function onChange(c: Change) {
    const owner = ownerKey(c);
    if (owner) forget(owner);
    if (c.marker) markers.heard(c.marker);
  }

  function listen() {
    if (!hub || listening || Date.now() - lastTry < RETRY_MS) return;
    lastTry = Date.now();
    hub.subscribe(onChange).catch((err) => o.log.warn({ err }, "session cache: LISTEN failed; logins are read from the database"));
  }

  return {
    /** Whether a login is kept for this token hash (it is still to be confirmed with `settled`). */
    has(hash: string): boolean {
      if (!listening) {
        listen();
        return false;
      }
      return entries.has(hash);
    },

    /** The login kept for this token hash, unless it expired. */
    get(hash: string): T | undefined {
      const e = listening ? entries.get(hash) : undefined;
      if (!e) return undefined;
      if (Date.now() - e.at > o.ttlMs) {
        entries.remove(hash);
        return undefined;
      }
      return e.value;
    },

    /**
     * Resolves true once this instance has applied every change committed before the call: PostgreSQL delivers
     * notifications in commit order, so a marker sent after the call comes back after them. Callers waiting at the
     * same time share one marker; a marker already on its way does not count for a later caller, since it may have
     * been sent before that caller's moment. False when that could not be known (not listening, marker lost): then
     * only the database knows.
     */
    settled(): Promise<boolean> {
      if (!listening) return Promise.resolve(false);
      return markers.next();
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
      entries.set(hash, { value, owner, at: now }, o.maxEntries);
    },

    async close() {
      clear();
      await hub?.close();
    },
  };
}

/** Kept values by token hash, indexed by owner; the oldest is dropped past `maxEntries`. */
function createOwnedEntries<T>() {
  const entries = new Map<string, { value: T; owner: string; at: number }>();
  const byOwner = new Map<string, Set<string>>();

  function remove(hash: string) {
    const e = entries.get(hash);
    if (!e) return;
    entries.delete(hash);
    byOwner.get(e.owner)?.delete(hash);
  }

  return {
    has: (hash: string) => entries.has(hash),
    get: (hash: string) => entries.get(hash),
    remove,
    set(hash: string, e: { value: T; owner: string; at: number }, maxEntries: number) {
      entries.set(hash, e);
      let set = byOwner.get(e.owner);
      if (!set) byOwner.set(e.owner, (set = new Set()));
      set.add(hash);
      if (entries.size > maxEntries) remove(entries.keys().next().value!);
    },
    /** Drops every value of the owner. */
    removeOwner(owner: string) {
      const hashes = byOwner.get(owner);
      if (!hashes) return;
      byOwner.delete(owner);
      for (const h of hashes) entries.delete(h);
    },
    clear() {
      entries.clear();
      byOwner.clear();
    },
  };
}

/**
 * Markers sent through the LISTEN connection (docs/decisions/221): `next` resolves true once a marker sent after the
 * call has come back, so every notification committed before the call has arrived; false when that could not be known.
 */
function createMarkers(publish: (marker: string) => Promise<void>, log: Logger) {
  /** the marker on its way and who waits for it; and who waits for the next one */
  let inFlight: { marker: string; done: (heard: boolean) => void } | undefined;
  let waiting: ((heard: boolean) => void)[] = [];
  let sending = false;

  /** One marker at a time, for everyone who asked before it was sent; then the next, for those who asked meanwhile. */
  async function sendMarkers() {
    sending = true;
    while (waiting.length) {
      const batch = waiting;
      waiting = [];
      const marker = crypto.randomBytes(8).toString("hex");
      const back = new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), MARKER_TIMEOUT_MS).unref();
        inFlight = {
          marker,
          done: (heard) => {
            clearTimeout(timer);
            resolve(heard);
          },
        };
      });
      let heard = false;
      try {
        // through the LISTEN connection: no wait for the request pool, no flush to disk (db/listen-hub.ts)
        await publish(marker);
        heard = await back;
      } catch (err) {
        log.warn({ err }, "session cache: marker not sent");
      }
      inFlight = undefined;
      for (const done of batch) done(heard);
    }
    sending = false;
  }

  return {
    next(): Promise<boolean> {
      return new Promise<boolean>((resolve) => {
        waiting.push(resolve);
        if (!sending) void sendMarkers();
      });
    },
    /** A marker came back on the LISTEN connection. */
    heard(marker: string) {
      if (marker === inFlight?.marker) inFlight.done(true);
    },
    /** The connection was lost: a marker sent on it will not come back on the new one. */
    lost() {
      inFlight?.done(false);
    },
  };
}
