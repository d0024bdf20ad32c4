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
 * What a connection meets once the database server is stopping or gone: ended by it (57P01, "terminating connection due
 * to administrator command"), a new one refused while it shuts down (57P03) or with nothing listening (over TCP or its
 * socket).
 */
const SERVER_GONE = new Set(["57P01", "57P03", "ECONNREFUSED", "ENOENT"]);
export const serverGone = (err: unknown) => SERVER_GONE.has((err as { code?: string } | null)?.code ?? "");

let stopBegan = false;
/** The components that have said their connection ended, and when. */
const saidEnded = new Map<string, number>();
/** Before a stop, a component whose connection keeps ending says so again at most this often. */
const ENDED_REPEAT_MS = 60_000;

/**
 * The one line a component (a queue, a LISTEN connection) logs when its database connection ends, instead of the error
 * with its stack: the stack only shows pg's parser, and a terminal's Ctrl-C, which reaches PostgreSQL too, ends every
 * connection at once (issue 46 item 24). Once this process's stop has begun it is the stop asked for: said at info,
 * once per component. Before that a server going away is worth a warning, repeated at most once a minute.
 */
export function logConnectionEnded(log: Logger, component: string, err: unknown): void {
  const last = saidEnded.get(component);
  if (last !== undefined && (stopBegan || Date.now() - last < ENDED_REPEAT_MS)) return;
  saidEnded.set(component, Date.now());
  const { code, message } = (err ?? {}) as { code?: string; message?: string };
  const line = { component, code, reason: message };
  if (stopBegan) log.info(line, "database connection closed by the stop");
  else log.warn(line, "database connection lost: the database server is stopping or gone");
}

/** Whether this process's stop has begun: any connection lost since is that stop's doing. */
export const stopHasBegun = () => stopBegan;

/**
 * For a process whose stop has begun. A job that ends while the queues stop has its completion written by pg-boss 10
 * without awaiting it: once its pool is closed, or PostgreSQL is gone (a terminal's Ctrl-C reaches it too), that write
 * fails unobserved, and Node would end the process with 1 for it. The job is only retried once it expires: what the stop
 * leaves unfinished is no error (docs/decisions/323). Before the stop, Node's default (exit 1) stays. From here on a
 * connection ended by the server is said once per component (logConnectionEnded).
 */
export function beginStop(log: Logger): void {
  stopBegan = true;
  process.on("unhandledRejection", (err) => {
    if (serverGone(err)) logConnectionEnded(log, "work still finishing", err);
    else log.warn({ err }, "work still finishing when the stop began failed");
  });
}
