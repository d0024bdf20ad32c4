// Plain JavaScript: worker threads do not load TypeScript through tsx. See load-clients.ts.
import { parentPort, workerData } from "node:worker_threads";

const spec = workerData;
const result = { latencies: [], statuses: {}, errors: 0 };
const end = Date.now() + spec.durationMs;
async function client(token) {
  while (Date.now() < end) {
    const started = performance.now();
    try {
      const res = await fetch(spec.url, { method: spec.method, headers: { token, "content-type": "application/json" }, body: spec.body });
      await res.arrayBuffer();
      result.latencies.push(performance.now() - started);
      result.statuses[res.status] = (result.statuses[res.status] ?? 0) + 1;
    } catch {
      result.errors++;
    }
  }
}
await Promise.all(spec.tokens.map(client));
parentPort.postMessage(result);
