import { AsyncLocalStorage } from "node:async_hooks";
import type pg from "pg";

/**
 * Server-side limits every connection of an API pool carries (docs/decisions/244): a statement stuck on a lock, a
 * runaway statement or a transaction left open fails on its own within seconds, instead of holding a connection that
 * everyone else waits for.
 */
export interface SessionLimits {
  /** PostgreSQL's `lock_timeout`: the longest one statement waits for a lock (then 55P03). */
  lockTimeoutMs: number;
  /** PostgreSQL's `statement_timeout`: the longest one statement runs (then 57014). */
  statementTimeoutMs: number;
  /** PostgreSQL's `idle_in_transaction_session_timeout`: the longest a transaction may sit idle between statements. */
  idleInTransactionMs: number;
  /** The longest a query waits for a free connection of the pool. */
  poolWaitMs: number;
}

/** The pool options that put `limits` on every connection (sent at connect, so no statement is spent on them). */
export function poolOptions(limits: SessionLimits | undefined): pg.PoolConfig {
  if (!limits) return {};
  return {
    lock_timeout: limits.lockTimeoutMs,
    statement_timeout: limits.statementTimeoutMs,
    idle_in_transaction_session_timeout: limits.idleInTransactionMs,
    connectionTimeoutMillis: limits.poolWaitMs,
  };
}

/**
 * Code that runs inside an open transaction and asks the pool for another connection holds one connection while it
 * waits for a second: enough such requests at once hold every connection and wait for each other (issue 29). The
 * transaction that is open in this async context; `open` turns false when it ends, so work it started and did not
 * await may use the pool afterwards.
 */
const openTransaction = new AsyncLocalStorage<{ open: boolean }>();

const POOL_INSIDE_TRANSACTION = "POOL_INSIDE_TRANSACTION";

/** Thrown (in development and tests) where code inside a transaction reaches for the pool. */
export class PoolInsideTransactionError extends Error {
  readonly code = POOL_INSIDE_TRANSACTION;
  constructor() {
    super("a query on the pool was made inside an open transaction: pass the transaction's client instead (docs/decisions/244)");
  }
}

/** True for a {@link PoolInsideTransactionError}, also as Prisma passes it on (its code kept, the class not). */
export const isPoolInsideTransaction = (err: unknown) => (err as { code?: string } | undefined)?.code === POOL_INSIDE_TRANSACTION;

/** Runs `fn` as the body of a transaction: the pool refuses it (see {@link guardPool}) until it ends. */
export async function insideTransaction<T>(fn: () => Promise<T>): Promise<T> {
  const mark = { open: true };
  try {
    return await openTransaction.run(mark, fn);
  } finally {
    mark.open = false;
  }
}

/**
 * Makes `pool` report every connection asked for inside an open transaction (a Prisma query on the Db, `pool.query`
 * and a nested transaction all take one through `connect`). `report` throws in development and tests, so the test
 * suites find every such place; production logs it and goes on, as the session limits bound the wait.
 */
export function guardPool(pool: pg.Pool, report: (err: PoolInsideTransactionError) => void): void {
  const connect = pool.connect.bind(pool) as (cb?: unknown) => unknown;
  pool.connect = ((cb?: unknown) => {
    if (openTransaction.getStore()?.open) {
      try {
        report(new PoolInsideTransactionError());
      } catch (err) {
        // pool.query passes a callback; everything else awaits the promise
        if (typeof cb !== "function") return Promise.reject(err);
        process.nextTick(cb as (e: unknown) => void, err);
        return undefined;
      }
    }
    if (typeof cb === "function") return connect(cb);
    return (connect() as Promise<pg.PoolClient>).then(releasedWhenLost);
  }) as typeof pool.connect;
}

/**
 * A connection held for a transaction that the server closes (its idle limit, a restart) goes back to the pool as
 * broken at once: Prisma releases a transaction's connection only after its ROLLBACK succeeded, which on a closed
 * connection never happens, so each such transaction would keep a pool slot for good.
 */
function releasedWhenLost(client: pg.PoolClient): pg.PoolClient {
  const release = client.release.bind(client);
  let released = false;
  const lost = (err?: Error) => client.release(err ?? new Error("the database closed the connection"));
  client.release = (err?: Error | boolean) => {
    if (released) return;
    released = true;
    client.removeListener("error", lost);
    client.removeListener("end", lost);
    release(err);
  };
  client.once("error", lost);
  client.once("end", lost);
  return client;
}

export const throwInsideTransaction = (err: PoolInsideTransactionError): never => {
  throw err;
};
