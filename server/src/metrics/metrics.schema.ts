import { z } from "zod";

/** The console's operations page: every figure of `/metrics` as plain values (a histogram as its `_count` and `_sum`). */
export const operationsAnswer = z.object({
  /** When the figures were read (ISO time). */
  at: z.string(),
  series: z.array(z.object({ name: z.string(), labels: z.record(z.string(), z.string()), value: z.number() })),
  /** API requests and server errors (5xx) per second in each finished five seconds of the last ten minutes, oldest first (since the process started) */
  recent: z.array(z.object({ at: z.string(), requests: z.number(), errors: z.number() })),
});
