import type { Request, RequestHandler } from "express";
import { sqlPool, type Db } from "../db/client.ts";
import { HttpError } from "./errors.ts";

export interface RateRule {
  /** What is counted, e.g. `email:a@b.c` or `ip:1.2.3.4`; the route name is prefixed. */
  key: string;
  limit: number;
  windowSeconds: number;
}

/** One hit waiting for the statement that counts it. */
interface PendingHit {
  key: string;
  windowStart: number;
  resolve: (count: number) => void;
  reject: (err: unknown) => void;
}

/**
 * Fixed-window counters in PostgreSQL, so every API instance shares them. The counter for (key, window start) is
 * created or incremented atomically; the hits of one turn of the event loop are counted in one statement (decision
 * 227: 200 chat messages arriving together made 200 round trips), each hit still getting its own place in the count.
 */
export class RateLimiter {
  private pending: PendingHit[] = [];

  constructor(private readonly db: Db) {}

  /**
   * Counts one hit for every rule (a refused request still counts against the others); throws 429 when any is over its
   * limit, with SPEC's silent 'Too many requests' unless the caller names a message the person should read.
   */
  async hit(scope: string, rules: RateRule[], message?: string): Promise<void> {
    const now = Date.now();
    const counts = await Promise.all(
      rules.map((rule) => {
        const windowMs = rule.windowSeconds * 1000;
        return this.count(`${scope}|${rule.key}`, Math.floor(now / windowMs) * windowMs);
      }),
    );
    if (counts.some((count, i) => count > rules[i]!.limit)) throw message ? new HttpError(429, message) : HttpError.tooManyRequests();
  }

  /** This hit's place in its window's count. */
  private count(key: string, windowStart: number): Promise<number> {
    return new Promise((resolve, reject) => {
      // after the I/O phase: every request parsed in this turn has been counted by then
      if (!this.pending.length) setImmediate(() => void this.flush());
      this.pending.push({ key, windowStart, resolve, reject });
    });
  }

  private async flush(): Promise<void> {
    const hits = this.pending;
    this.pending = [];
    const counters = new Map<string, { key: string; windowStart: number; hits: PendingHit[] }>();
    for (const h of hits) {
      const id = `${h.windowStart}|${h.key}`;
      const counter = counters.get(id) ?? { key: h.key, windowStart: h.windowStart, hits: [] };
      counter.hits.push(h);
      counters.set(id, counter);
    }
    // every instance locks counters in the same order, so two batches cannot wait on each other
    const list = [...counters.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.windowStart - b.windowStart));
    try {
      // straight through pg, as the session lookup: on every rate-limited request Prisma's per-query work cost more
      // than the upsert itself under load (docs/decisions/074)
      const { rows } = await sqlPool(this.db).query<{ key: string; window: string; count: number }>({
        name: "rate-limit-hits",
        // Prisma keeps DateTime as UTC in "timestamp without time zone": the window start is converted the same way
        text: `INSERT INTO rate_limit_counters (key, window_start, count)
               SELECT key, to_timestamp(window_ms / 1000.0) AT TIME ZONE 'UTC', n FROM unnest($1::text[], $2::bigint[], $3::int[]) AS hit(key, window_ms, n)
               ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limit_counters.count + EXCLUDED.count
               RETURNING key, (extract(epoch FROM window_start) * 1000)::bigint::text AS window, count`,
        values: [list.map((c) => c.key), list.map((c) => c.windowStart), list.map((c) => c.hits.length)],
      });
      for (const row of rows) {
        const counter = counters.get(`${row.window}|${row.key}`);
        counters.delete(`${row.window}|${row.key}`);
        // the hits of one counter take the places just added to it, in the order they arrived
        counter?.hits.forEach((h, i) => h.resolve(row.count - counter.hits.length + 1 + i));
      }
      for (const c of counters.values()) for (const h of c.hits) h.reject(new Error(`rate limit counter ${c.key} was not returned`));
    } catch (err) {
      for (const h of hits) h.reject(err);
    }
  }

  /** Middleware form: `rules` picks what to count from the request (ip, email, user). */
  middleware(scope: string, rules: (req: Request) => RateRule[], message?: string): RequestHandler {
    return async (req, _res, next) => {
      await this.hit(scope, rules(req), message);
      next();
    };
  }

  /** Counts per signed-in user; routes using it require a user, so the anonymous bucket only guards against misuse. */
  perUser(scope: string, limit: number, windowSeconds: number, message?: string): RequestHandler {
    return this.middleware(scope, (req) => [{ key: `user:${req.principal?.kind === "user" ? req.principal.userId : "-"}`, limit, windowSeconds }], message);
  }

  /** Old windows are useless; the worker's housekeeping calls this. */
  async prune(olderThanSeconds = 86_400): Promise<number> {
    return this.db.$executeRaw`DELETE FROM rate_limit_counters WHERE window_start < ${new Date(Date.now() - olderThanSeconds * 1000)}`;
  }
}
