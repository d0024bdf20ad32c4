import type { Response } from "express";

/** The head of every Server-Sent Events answer: never cached, never buffered by a proxy. */
const HEAD = { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store", Connection: "keep-alive", "X-Accel-Buffering": "no" };

/** How long a client waits before it tries again after a stream ended by a stop (the SSE `retry:` field). */
const RETRY_MS = 2_000;

/** Event streams open in this process, ended with a `reconnect` event when it stops (main.ts). */
const open = new Set<Response>();

/** Writes an event stream's head on `res` and counts the stream among those a stop ends. */
export function openEventStream(res: Response): void {
  res.writeHead(200, HEAD);
  open.add(res);
  res.once("close", () => open.delete(res));
}

/**
 * Ends every open event stream with a `reconnect` event: the process is stopping, and the app reconnects (or polls) to
 * an instance still running, or to this one once it is back. Answers how many were ended.
 */
export function endEventStreams(): number {
  const ending = [...open];
  for (const res of ending) {
    if (res.writableEnded) continue;
    res.end(`retry: ${RETRY_MS}\nevent: reconnect\ndata: {}\n\n`);
  }
  open.clear();
  return ending.length;
}
