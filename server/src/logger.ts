import { pino, type Logger } from "pino";
import type { Config } from "./config.ts";

/**
 * JSON lines to stdout (or `dest`). In production lines are batched into writes of about 4 KB, since a write per
 * request line is a measurable share of a request's cost; pino flushes the batch when the process exits.
 */
export function createLogger(config: Config, dest: number | string = 1): Logger {
  const destination = pino.destination({ dest, sync: false, minLength: config.NODE_ENV === "production" ? 4096 : 0 });
  return pino({ level: config.LOG_LEVEL, base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, destination);
}
