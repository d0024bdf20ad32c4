import type { ErrorRequestHandler, RequestHandler } from "express";
import type { Logger } from "pino";
import { limitHit, sqlState } from "../db/client.ts";
import { sendError } from "./envelope.ts";
import { HttpError } from "./errors.ts";
import { MSG } from "./messages.ts";

export const notFoundHandler: RequestHandler = (_req, res) => sendError(res, 404, MSG.notFound);

/**
 * A number that does not fit the database column it is compared with (an id beyond PostgreSQL's integer): Prisma's
 * P2020, or PostgreSQL's 22003 from a raw statement. Our own code never makes such a value, so it came from the request:
 * every endpoint's zod schema takes any positive integer as an id, and this one place answers it as bad input.
 */
function isOutOfRange(err: unknown): boolean {
  return (err as { code?: string } | undefined)?.code === "P2020" || sqlState(err) === "22003";
}

/**
 * The one place errors become responses. A database limit that stopped the request answers 409 or 503; anything else
 * that is not an HttpError is logged and answered with the generic message.
 */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent) return;
    if (err instanceof HttpError) return sendError(res, err.status, err.message, err.data);
    // a database limit stopped this request alone (docs/decisions/244): the person may simply try again
    const limit = limitHit(err);
    if (limit) {
      log.warn({ err, reqId: req.requestId, limit }, "database limit hit");
      return limit === "lock" ? sendError(res, 409, MSG.busy) : sendError(res, 503, MSG.serviceBusy);
    }
    // body-parser and multer errors carry a status for malformed or oversized input
    const status = typeof err?.status === "number" ? err.status : typeof err?.statusCode === "number" ? err.statusCode : 500;
    if (status === 413) return sendError(res, 413, "Request body is too large");
    if ((status >= 400 && status < 500) || isOutOfRange(err)) return sendError(res, 400, MSG.badRequest);
    log.error({ err, reqId: req.requestId }, "unhandled error");
    sendError(res, 500, MSG.unknown);
  };
}
