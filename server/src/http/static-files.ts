import zlib from "node:zlib";
import path from "node:path";
import compression from "compression";
import expressStaticGzip from "express-static-gzip";
import type { NextFunction, Request, RequestHandler, Response } from "express";

/**
 * Answers under this size go out as they are: the encoding's own header and dictionary outweigh what it saves on a
 * small JSON answer, and the answer is produced faster than it would be compressed.
 */
const COMPRESS_FROM_BYTES = 1024;

/**
 * Compresses answers made on the fly (API JSON, the creator page's HTML with its preview tags) with the best encoding
 * the client accepts, from COMPRESS_FROM_BYTES on. Never an event stream: its events must leave as they are written,
 * and a compressor holds them back until its buffer fills. Never a partial answer (a range of a stored file), whose
 * byte offsets name the file as it is. Files the build compressed already carry their Content-Encoding and pass.
 */
export function compressAnswers(): RequestHandler {
  return compression({
    threshold: COMPRESS_FROM_BYTES,
    // Brotli's default 4 MB window is allocated per answer and halved personal_info's throughput; 64 KB covers an
    // answer made per request (bench/personal-info.bench.ts)
    brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_LGWIN]: 16 } },
    filter(req, res) {
      if (req.headers.range || res.getHeader("Content-Range")) return false;
      if (/^text\/event-stream/i.test(String(res.getHeader("Content-Type") ?? ""))) return false;
      return compression.filter(req, res);
    },
  });
}

/** Hashed file names (Vite writes them under assets/): a file's content never changes under its name. */
const HASHED = `${path.sep}assets${path.sep}`;

export interface BuiltAppFiles {
  /** Serves a file of the folder, or passes to the next handler when there is none. */
  serve: RequestHandler;
  /** Answers the app's index.html, as `serve` would answer it, whatever the path asked for (the app's router decides). */
  sendIndex(req: Request, res: Response, next: NextFunction): void;
}

/**
 * A built app's folder (dist/consumer, dist/console): each file in the best encoding the client accepts among the copies
 * the build wrote beside it (Brotli `.br`, then gzip `.gz`; scripts/build.ts), with `Vary: Accept-Encoding` and the
 * copy's own Content-Length and ETag. Hashed assets are cached for a year; everything else (index.html, the service
 * worker, the manifest) is revalidated on every load so a deploy reaches people at once.
 */
export function builtAppFiles(root: string): BuiltAppFiles {
  const serve = expressStaticGzip(root, {
    enableBrotli: true,
    orderPreference: ["br", "gzip"],
    index: false,
    serveStatic: {
      index: false,
      setHeaders(res, file) {
        res.setHeader("Cache-Control", file.includes(HASHED) ? "public, max-age=31536000, immutable" : "no-cache");
      },
    },
  }) as RequestHandler;
  // a path that is no file name (a malformed escape such as `/%E0%A4%A`) is no file: the app's router answers it, where
  // express-static-gzip would answer 400 itself
  const files: RequestHandler = (req, res, next) => {
    try {
      decodeURIComponent(req.path);
    } catch {
      return next();
    }
    serve(req, res, next);
  };
  return {
    serve: files,
    sendIndex(req, res, next) {
      const asked = req.url;
      req.url = "/index.html";
      serve(req, res, (err?: unknown) => {
        req.url = asked;
        next(err);
      });
    },
  };
}
