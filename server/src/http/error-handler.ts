import type { ErrorRequestHandler, RequestHandler } from "express";
import type { Logger } from "pino";
import { sendError } from "./envelope.ts";
import { HttpError } from "./errors.ts";
import { MSG } from "./messages.ts";

export const notFoundHandler: RequestHandler = (_req, res) => sendError(res, 404, MSG.notFound);

/** The one place errors become responses. Anything that is not an HttpError is logged and answered with the generic message. */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent) return;
    if (err instanceof HttpError) return sendError(res, err.status, err.message, err.data);
    // body-parser and multer errors carry a status for malformed or oversized input
    const status = typeof err?.status === "number" ? err.status : typeof err?.statusCode === "number" ? err.statusCode : 500;
    if (status === 413) return sendError(res, 413, "Request body is too large");
    if (status >= 400 && status < 500) return sendError(res, 400, MSG.badRequest);
    log.error({ err, reqId: req.requestId }, "unhandled error");
    sendError(res, 500, MSG.unknown);
  };
}
