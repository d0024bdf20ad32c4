import fs from "node:fs/promises";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import express from "express";
import type { BenchResult } from "./run.ts";
import { createApp } from "../server/src/app.ts";
import { parseConfig } from "../server/src/config.ts";
import { compressAnswers } from "../server/src/http/static-files.ts";
import { sqlPool } from "../server/src/db/client.ts";
import { openDatabase } from "../server/src/db/database.ts";
import { createLogger } from "../server/src/logger.ts";
import { freePort } from "../tests/net-utils.ts";

const ROUND_S = 5;
const ROUNDS = 5;
const CONNECTIONS = 32;

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export function listen(app: express.Express): Promise<{ url: string; server: Server }> {
  return new Promise((resolve) => {
    const server = app.listen(0, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }));
  });
}

/** The load generator runs in a worker thread so it does not share the server's event loop. */
export async function load(url: string, headers: Record<string, string>, duration = ROUND_S) {
  const r = await autocannon({ url, headers, connections: CONNECTIONS, duration, workers: 1 });
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  return { rps: r.requests.average, p99: r.latency.p99, p50: r.latency.p50, total: r.requests.total };
}

/**
 * GET /api/Personal/personal_info with a valid token (token lookup, CASL abilities, user row, envelope, request log)
 * against a bare Express handler answering the same JSON, on loopback, in the same run.
 */
export default async function personalInfoBench(): Promise<BenchResult[]> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-bench-pi-"));
  // production-like: request logs on, written where nobody reads them
  const config = parseConfig({
    NODE_ENV: "production",
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
    LOG_LEVEL: "info",
    RATE_LIMIT_VISITOR_PER_HOUR: "1000",
  });
  const log = createLogger(config, "/dev/null");
  const database = await openDatabase(config, log);
  const reverie = await listen(createApp({ db: database.db, config, log }).app);
  try {
    const login = await (await fetch(`${reverie.url}/api/login/visitor`, { method: "POST" })).json();
    // as a browser asks: with compression on, an answer over its threshold is compressed (decision 360)
    const headers = { token: login.data.token as string, "accept-encoding": "gzip, deflate, br" };
    const target = `${reverie.url}/api/Personal/personal_info`;
    const sample = await (await fetch(target, { headers })).json();
    if (sample.code !== 200) throw new Error(`personal_info answered ${JSON.stringify(sample)}`);

    const bareApp = express();
    bareApp.get("/personal_info", (_req, res) => {
      res.json(sample);
    });
    // reference only: the same handler after one trivial PostgreSQL round trip, the floor for any endpoint that reads the database
    bareApp.get("/one_query", async (_req, res) => {
      await sqlPool(database.db).query("SELECT $1::int AS one", [1]);
      res.json(sample);
    });
    const bare = await listen(bareApp);
    // the same handler behind the same compression the API uses: what compressing costs any Express app, so the ratio
    // to it is Reverie's own per-request work (issue 48: >= 80 % with compression on)
    const compressedApp = express();
    compressedApp.use(compressAnswers());
    compressedApp.get("/personal_info", (_req, res) => {
      res.json(sample);
    });
    const compressed = await listen(compressedApp);
    try {
      await load(`${bare.url}/personal_info`, headers, 2); // warm-up both
      await load(target, headers, 2);
      // alternate short rounds, so that a burst of load from elsewhere on the machine hits both sides alike
      const bareRounds: Awaited<ReturnType<typeof load>>[] = [];
      const reverieRounds: Awaited<ReturnType<typeof load>>[] = [];
      const oneQueryRounds: Awaited<ReturnType<typeof load>>[] = [];
      const compressedRounds: Awaited<ReturnType<typeof load>>[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        bareRounds.push(await load(`${bare.url}/personal_info`, headers));
        reverieRounds.push(await load(target, headers));
        oneQueryRounds.push(await load(`${bare.url}/one_query`, headers));
        compressedRounds.push(await load(`${compressed.url}/personal_info`, headers));
      }
      const ratios = reverieRounds.map((r, i) => r.rps / bareRounds[i].rps);
      const ratio = median(ratios);
      const bareResult = { rps: median(bareRounds.map((r) => r.rps)), p99: median(bareRounds.map((r) => r.p99)) };
      const reverieResult = { rps: median(reverieRounds.map((r) => r.rps)), p99: median(reverieRounds.map((r) => r.p99)) };
      const oneQueryRatio = median(oneQueryRounds.map((r, i) => r.rps / bareRounds[i].rps));
      const compressedRatio = median(reverieRounds.map((r, i) => r.rps / compressedRounds[i].rps));
      const detail = {
        connections: CONNECTIONS,
        roundS: ROUND_S,
        rounds: ROUNDS,
        loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))),
        bareRounds,
        reverieRounds,
        oneQueryRounds,
        compressedRounds,
        ratios,
      };
      return [
        { name: "personal_info throughput (median of rounds)", value: reverieResult.rps, unit: "req/s", detail },
        { name: "personal_info p99 latency (median of rounds)", value: reverieResult.p99, unit: "ms" },
        { name: "bare Express throughput, same JSON (median of rounds)", value: bareResult.rps, unit: "req/s" },
        { name: "bare Express p99 latency (median of rounds)", value: bareResult.p99, unit: "ms" },
        { name: "personal_info / bare throughput (median of per-round ratios)", value: ratio * 100, unit: "%", target: ">= 40 %", pass: ratio >= 0.4 },
        {
          name: "personal_info / bare Express with the same compression, throughput (median of per-round ratios)",
          value: compressedRatio * 100,
          unit: "%",
          target: ">= 80 %",
          pass: compressedRatio >= 0.8,
        },
        { name: "reference: bare + one SELECT / bare throughput", value: oneQueryRatio * 100, unit: "%" },
      ];
    } finally {
      for (const { server } of [bare, compressed]) {
        server.closeAllConnections();
        server.close();
      }
    }
  } finally {
    reverie.server.closeAllConnections();
    reverie.server.close();
    await database.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
