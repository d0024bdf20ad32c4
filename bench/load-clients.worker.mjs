// Plain JavaScript: worker threads do not load TypeScript through tsx. See load-clients.ts.
// autocannon's raw HTTP/1.1 client rather than fetch: on this 2-core machine fetch (undici and web streams) took about
// one core to drive 200 clients, CPU the server under test then lacked (docs/decisions/200).
import autocannon from "autocannon";
import { parentPort, workerData } from "node:worker_threads";

const spec = workerData;
const result = { latencies: [], statuses: {}, errors: 0, settling: { requests: 0, max: 0 } };
let next = 0;
// loaded: every group begins when all are (load-clients.ts)
parentPort.postMessage("ready");
await new Promise((resolve) => parentPort.once("message", resolve));
const settledAt = performance.now() + (spec.settleMs ?? 0);
const instance = autocannon({
  url: spec.url,
  connections: spec.tokens.length,
  duration: (spec.durationMs + (spec.settleMs ?? 0)) / 1000,
  timeout: 30,
  requests: [
    {
      method: spec.method,
      body: spec.body,
      // each connection keeps one account's token, so load from many accounts is not one account's row contention
      setupRequest: (req, context) => {
        context.token ??= spec.tokens[next++ % spec.tokens.length];
        return { ...req, headers: { ...req.headers, token: context.token, "content-type": "application/json" } };
      },
    },
  ],
});
instance.on("response", (_client, statusCode, _bytes, responseTime) => {
  if (performance.now() - responseTime < settledAt) {
    result.settling.requests++;
    result.settling.max = Math.max(result.settling.max, responseTime);
  } else result.latencies.push(responseTime);
  result.statuses[statusCode] = (result.statuses[statusCode] ?? 0) + 1;
});
instance.on("reqError", () => result.errors++);
await instance;
parentPort.postMessage(result);
