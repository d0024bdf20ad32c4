import crypto from "node:crypto";
import type { RequestHandler } from "express";
import type { Logger } from "pino";

const SANE_REQUEST_ID = /^[\w-]{1,64}$/;

/**
 * Gives every request an id (a sane `x-request-id` from a load balancer is kept) and writes one JSON line when the
 * response is done: `{ req: { id, method, url }, res: { statusCode }, responseTime }`.
 *
 * Not pino-http: it builds a child logger and several listeners per request, which measured as a tenth of the cost
 * of an authenticated API call (docs/decisions/007). One `close` listener and one log call do the same job.
 */
export function requestLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    const given = req.headers["x-request-id"];
    const id = typeof given === "string" && SANE_REQUEST_ID.test(given) ? given : crypto.randomUUID();
    req.requestId = id;
    res.setHeader("x-request-id", id);
    if (log.isLevelEnabled("info")) {
      const started = performance.now();
      res.once("close", () => {
        const responseTime = Math.round(performance.now() - started);
        // the cache-busting `t` parameter is noise in every line
        const entry = { req: { id, method: req.method, url: req.originalUrl.replace(/([?&]t=)\d+/, "$1") }, res: { statusCode: res.statusCode }, responseTime };
        if (!res.writableFinished) log.warn(entry, "request aborted");
        else if (res.statusCode >= 500) log.error(entry, "request errored");
        else log.info(entry, "request completed");
      });
    }
    next();
  };
}
