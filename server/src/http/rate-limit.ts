import type { Request, RequestHandler } from "express";
import { sqlPool, type Db } from "../db/client.ts";
import { HttpError } from "./errors.ts";

export interface RateRule {
  /** What is counted, e.g. `email:a@b.c` or `ip:1.2.3.4`; the route name is prefixed. */
  key: string;
  limit: number;
  windowSeconds: number;
}

/**
 * Fixed-window counters in PostgreSQL, so every API instance shares them.
 * One upsert per rule: the row for (key, window start) is created or incremented atomically.
 */
export class RateLimiter {
  constructor(private readonly db: Db) {}

  /** Counts one hit for every rule (a refused request still counts against the others); throws 429 when any is over its limit. */
  async hit(scope: string, rules: RateRule[]): Promise<void> {
    const now = Date.now();
    let over = false;
    for (const rule of rules) {
      const windowMs = rule.windowSeconds * 1000;
      const windowStart = new Date(Math.floor(now / windowMs) * windowMs);
      // straight through pg, as the session lookup: on every rate-limited request (submits, refusals included), Prisma's
      // per-query work cost more than the upsert itself under load (docs/decisions/074)
      const { rows } = await sqlPool(this.db).query<{ count: number }>({
        name: "rate-limit-hit",
        text: `INSERT INTO rate_limit_counters (key, window_start, count) VALUES ($1, $2::timestamptz AT TIME ZONE 'UTC', 1)
               ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limit_counters.count + 1
               RETURNING count`,
        // Prisma keeps DateTime as UTC in "timestamp without time zone": the window start is converted the same way
        values: [`${scope}|${rule.key}`, windowStart.toISOString()],
      });
      if ((rows[0]?.count ?? 0) > rule.limit) over = true;
    }
    if (over) throw HttpError.tooManyRequests();
  }

  /** Middleware form: `rules` picks what to count from the request (ip, email, user). */
  middleware(scope: string, rules: (req: Request) => RateRule[]): RequestHandler {
    return async (req, _res, next) => {
      await this.hit(scope, rules(req));
      next();
    };
  }

  /** Counts per signed-in user; routes using it require a user, so the anonymous bucket only guards against misuse. */
  perUser(scope: string, limit: number, windowSeconds: number): RequestHandler {
    return this.middleware(scope, (req) => [{ key: `user:${req.principal?.kind === "user" ? req.principal.userId : "-"}`, limit, windowSeconds }]);
  }

  /** Old windows are useless; the worker's housekeeping calls this. */
  async prune(olderThanSeconds = 86_400): Promise<number> {
    return this.db.$executeRaw`DELETE FROM rate_limit_counters WHERE window_start < ${new Date(Date.now() - olderThanSeconds * 1000)}`;
  }
}
