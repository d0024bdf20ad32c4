import type { RequestHandler } from "express";
import multer from "multer";
import { HttpError } from "./errors.ts";
import { MSG } from "./messages.ts";

/** Marks the middleware that reads a multipart form: its fields are text, so that route's body schema may make numbers of them. */
export const MULTIPART = Symbol("multipart");

/**
 * Multipart `file` kept in memory up to `maxBytes`; a larger file is refused with the kind's own SPEC message (or the
 * HttpError a function makes, when the refusal carries data, as spreadsheets' do).
 */
export function receiveFile(maxBytes: number, tooBig: string | (() => HttpError)): RequestHandler {
  const single = multer({ storage: multer.memoryStorage(), limits: { fileSize: maxBytes, files: 1, fields: 20, fieldSize: 64 * 1024 } }).single("file");
  const receive: RequestHandler = (req, res, next) => {
    single(req, res, (err: unknown) => {
      if (!err) return next();
      if (!(err instanceof multer.MulterError)) return next(err);
      if (err.code !== "LIMIT_FILE_SIZE") return next(HttpError.badRequest(MSG.badRequest));
      next(typeof tooBig === "string" ? HttpError.badRequest(tooBig) : tooBig());
    });
  };
  return Object.assign(receive, { [MULTIPART]: true });
}
