import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { Request, Response } from "express";
import { HttpError } from "../http/errors.ts";
import type { MediaStorage } from "./media-storage.ts";

/**
 * Sends a stored file through the API from any storage (local disk or S3), answering an HTTP Range request (RFC 9110
 * §14) with 206 and just those bytes, so a <video> element streams and seeks instead of waiting for the whole file.
 * One range is served; several, or a malformed header, get the whole file (200), as express's sendFile does for local
 * media; a range beyond the file is 416. The caller has made every check before this; `headers` are its own (caching).
 */
export async function sendStored(
  req: Request,
  res: Response,
  storage: Pick<MediaStorage, "size" | "stream">,
  key: string,
  headers: Record<string, string>,
): Promise<void> {
  const size = await storage.size(key);
  if (size === null) throw HttpError.notFound();
  res.set({ ...headers, "Accept-Ranges": "bytes" });
  const ranges = req.headers.range ? req.range(size, { combine: true }) : undefined;
  if (ranges === -1) {
    res.set("Content-Range", `bytes */${size}`);
    throw new HttpError(416, "Range not satisfiable");
  }
  const one = Array.isArray(ranges) && ranges.type === "bytes" && ranges.length === 1 ? ranges[0] : null;
  const { start, end } = one ?? { start: 0, end: size - 1 };
  if (one) res.status(206).set("Content-Range", `bytes ${start}-${end}/${size}`);
  res.type(path.extname(key)).set("Content-Length", String(end - start + 1));
  if (req.method === "HEAD" || size === 0) {
    res.end();
    return;
  }
  const body = await storage.stream(key, { start, end });
  try {
    await pipeline(body, res);
  } catch (err) {
    // a player that seeks drops the request it no longer needs: nothing to answer then
    if (!res.headersSent) throw err;
    res.destroy();
  }
}
