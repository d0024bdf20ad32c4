import { pino, type Logger } from "pino";
import type { Config } from "./config.ts";

export function createLogger(config: Config): Logger {
  return pino({ level: config.LOG_LEVEL, base: undefined, timestamp: pino.stdTimeFunctions.isoTime });
}
