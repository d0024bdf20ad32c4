import { z } from "zod";

/** The console's operations page: every figure of `/metrics` as plain values (a histogram as its `_count` and `_sum`). */
export const operationsAnswer = z.object({
  /** When the figures were read (ISO time): the page computes rates between two reads. */
  at: z.string(),
  series: z.array(z.object({ name: z.string(), labels: z.record(z.string(), z.string()), value: z.number() })),
});
