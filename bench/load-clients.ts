import { Worker } from "node:worker_threads";

/**
 * Closed-loop HTTP clients in a worker thread (load-clients.worker.mjs, off the server's event loop): one keep-alive
 * connection per token, so load from many accounts does not become one account's row contention. Each connection sends
 * its next request when the previous one is answered, for `durationMs`.
 */
export interface ClientSpec {
  url: string;
  method: "GET" | "POST";
  body?: string;
  tokens: string[];
  durationMs: number;
  /**
   * Requests sent in this first part of the run are answered but not timed: while every connection opens at once
   * (200 on a 2-core machine that also runs the server, PostgreSQL and the clients' threads) the first answers of
   * one group measured up to 2 s on the clients while the server's own timing of each request stayed under 150 ms.
   * Their count and slowest time are reported as `settling`.
   */
  settleMs?: number;
}

export interface ClientResult {
  latencies: number[];
  statuses: Record<string, number>;
  errors: number;
  settling: { requests: number; max: number };
}

/** Groups of clients that begin at the same moment: each group's thread is loaded first, then all are told to go. */
export async function runClientGroups(specs: ClientSpec[]): Promise<ClientResult[]> {
  const workers = specs.map((spec) => new Worker(new URL("./load-clients.worker.mjs", import.meta.url), { workerData: spec }));
  const results = workers.map(
    (w) =>
      new Promise<ClientResult>((resolve, reject) => {
        w.on("message", (m) => m !== "ready" && resolve(m as ClientResult));
        w.once("error", reject);
      }),
  );
  await Promise.all(workers.map((w) => new Promise((resolve) => w.once("message", resolve))));
  for (const w of workers) w.postMessage("go");
  return Promise.all(results);
}

export async function runClients(spec: ClientSpec): Promise<ClientResult> {
  return (await runClientGroups([spec]))[0]!;
}

export function percentile(xs: number[], p: number): number {
  if (!xs.length) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
