import { pino, type Logger } from "pino";
import type { Config } from "./config.ts";

/**
 * pino's error serializer, keeping only plain values. It copies every enumerable property of an error, and driver
 * errors carry their whole connection (pg puts the client on `client`): kilobytes of state in each line, possibly with
 * connection settings. Name, message, stack (with causes) and codes are what a reader needs.
 */
function plainError(err: unknown): Record<string, unknown> {
  // anything can be thrown; a string spread as an object would log {"0":"f","1":"f",…}
  if (!(err instanceof Error)) return { type: err === null ? "null" : typeof err, message: typeof err === "string" ? err : safeText(err) };
  const serialized = pino.stdSerializers.err(err) as unknown as Record<string, unknown>;
  return Object.fromEntries(Object.entries(serialized).filter(([, value]) => value === null || typeof value !== "object"));
}

function safeText(value: unknown): string {
  try {
    return typeof value === "object" ? JSON.stringify(value) : String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/**
 * JSON lines to stdout (or `dest`). In production lines are batched into writes of about 4 KB, since a write per
 * request line is a measurable share of a request's cost; pino flushes the batch when the process exits.
 */
export function createLogger(config: Config, dest: number | string = 1): Logger {
  const destination = pino.destination({ dest, sync: false, minLength: config.NODE_ENV === "production" ? 4096 : 0 });
  return pino({ level: config.LOG_LEVEL, base: undefined, timestamp: pino.stdTimeFunctions.isoTime, serializers: { err: plainError } }, destination);
}

/**
 * For a process whose stop has begun. A job that ends while the queues stop has its completion written by pg-boss 10
 * without awaiting it: once its pool is closed, or PostgreSQL is gone (a terminal's Ctrl-C reaches it too), that write
 * fails unobserved, and Node would end the process with 1 for it. The job is only retried once it expires: what the stop
 * leaves unfinished is no error (docs/decisions/323). Before the stop, Node's default (exit 1) stays.
 */
export function warnOfWorkFailingAfterStop(log: Logger): void {
  process.on("unhandledRejection", (err) => log.warn({ err }, "work still finishing when the stop began failed"));
}
