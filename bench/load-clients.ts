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
}

export interface ClientResult {
  latencies: number[];
  statuses: Record<string, number>;
  errors: number;
}

export function runClients(spec: ClientSpec): Promise<ClientResult> {
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL("./load-clients.worker.mjs", import.meta.url), { workerData: spec });
    w.once("message", resolve);
    w.once("error", reject);
  });
}

export function percentile(xs: number[], p: number): number {
  if (!xs.length) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
