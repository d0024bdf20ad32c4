import type { Logger } from "pino";
import type { AccountEvent } from "../../contract/account-events.ts";
import type { Db, Tx } from "../../db/client.ts";
import { createListenHub } from "../../db/listen-hub.ts";
import { notify, notifyEach } from "./generation.queries.ts";

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

/**
 * Either one login (a logout) or every login of an account (a ban, a merge). `banned` marks a ban: chat ends a reply
 * being written for the account with the ban notice, where a merge only closes streams.
 */
export type SessionEndedEvent = { sessionId: number } | { userId: number; banned?: true };

/** Sent inside the caller's transaction when it has one: delivered only if the revocation commits. */
export async function publishSessionEnded(db: Db | Tx, e: SessionEndedEvent): Promise<void> {
  await notify.rows(db, { channel: SESSION_ENDED_CHANNEL, payload: JSON.stringify(e) });
}

/** NOTIFY channel carrying per-account events (a message, later a notification) to every API instance's streams. */
export const ACCOUNT_CHANNEL = "reverie_account_events";

/**
 * Tells one account's open streams something happened (docs/decisions/311). Sent inside the caller's transaction:
 * heard only if it commits, and at its commit, so the client that reads on hearing it finds what was written.
 */
export async function publishAccountEvents(db: Db | Tx, events: AccountEvent[]): Promise<void> {
  if (events.length) await notifyEach.rows(db, { channel: ACCOUNT_CHANNEL, payloads: events.map((e) => JSON.stringify(e)) });
}

/** Publishes through PostgreSQL, so a browser connected to any API instance hears it. */
export async function publishProgress(db: Db | Tx, e: ProgressEvent): Promise<void> {
  await notify.rows(db, { channel: PROGRESS_CHANNEL, payload: JSON.stringify(e) });
}

type Listener = (e: ProgressEvent) => void;
type EndedListener = (e: SessionEndedEvent) => void;
type AccountListener = (e: AccountEvent) => void;

/**
 * Task progress, per-account events and ended logins for every API instance's SSE streams: one LISTEN connection per
 * channel and process (db/listen-hub.ts), fanned out to the streams this process serves.
 */
export function createProgressHub(databaseUrl: string | undefined, log: Logger) {
  const progress = createListenHub<ProgressEvent>(PROGRESS_CHANNEL, databaseUrl, log);
  const ended = createListenHub<SessionEndedEvent>(SESSION_ENDED_CHANNEL, databaseUrl, log);
  const account = createListenHub<AccountEvent>(ACCOUNT_CHANNEL, databaseUrl, log);
  return {
    /**
     * `onEnded` hears every ended login, so a stream can close when its own login or account is ended; `onAccount`
     * hears every account's events, for the stream to pick its own.
     */
    async subscribe(listener: Listener, onEnded?: EndedListener, onAccount?: AccountListener): Promise<() => void> {
      const offs = await Promise.all([
        progress.subscribe(listener),
        ...(onEnded ? [ended.subscribe(onEnded)] : []),
        ...(onAccount ? [account.subscribe(onAccount)] : []),
      ]);
      return () => offs.forEach((off) => off());
    },
    async close() {
      await Promise.all([progress.close(), ended.close(), account.close()]);
    },
  };
}

export type ProgressHub = ReturnType<typeof createProgressHub>;
