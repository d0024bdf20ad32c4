import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createApp } from "../server/src/app.ts";
import { parseConfig } from "../server/src/config.ts";
import { openDatabase } from "../server/src/db/database.ts";
import { createLogger } from "../server/src/logger.ts";
import { freePort } from "../tests/net-utils.ts";
import { listen, load, median } from "./personal-info.bench.ts";
import type { BenchResult } from "./run.ts";

const ROUNDS = 5;
/** Prometheus' usual interval is 15 s; scraping every 5 s during the load is on the safe side. */
const SCRAPE_EVERY_MS = 5000;

/**
 * What metrics cost (issue 35): personal_info's throughput from an app with `/metrics` on (one histogram observation per
 * request, and a scrape every few seconds meanwhile) against the same app with METRICS_ENABLED=false, on one database,
 * in alternating rounds of the same run.
 */
export default async function metricsCostBench(): Promise<BenchResult[]> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-bench-metrics-"));
  const settings = {
    NODE_ENV: "production",
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
    LOG_LEVEL: "info",
    RATE_LIMIT_VISITOR_PER_HOUR: "1000",
  };
  const on = parseConfig({ ...settings, METRICS_ENABLED: "true" });
  const off = parseConfig({ ...settings, METRICS_ENABLED: "false" });
  const log = createLogger(on, "/dev/null");
  const database = await openDatabase(on, log);
  const withMetrics = await listen(createApp({ db: database.db, config: on, log }).app);
  const without = await listen(createApp({ db: database.db, config: off, log }).app);
  try {
    const login = await (await fetch(`${withMetrics.url}/api/login/visitor`, { method: "POST" })).json();
    const headers = { token: login.data.token as string };
    const path = "/api/Personal/personal_info";
    const scrape = async () => {
      const res = await fetch(`${withMetrics.url}/metrics`);
      if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
      await res.text();
    };
    await scrape();
    await load(`${without.url}${path}`, headers, 2); // warm-up both
    await load(`${withMetrics.url}${path}`, headers, 2);
    const onRounds: Awaited<ReturnType<typeof load>>[] = [];
    const offRounds: Awaited<ReturnType<typeof load>>[] = [];
    let scrapes = 0;
    for (let i = 0; i < ROUNDS; i++) {
      offRounds.push(await load(`${without.url}${path}`, headers));
      const scraper = setInterval(() => void scrape().then(() => scrapes++), SCRAPE_EVERY_MS);
      try {
        onRounds.push(await load(`${withMetrics.url}${path}`, headers));
      } finally {
        clearInterval(scraper);
      }
    }
    const ratio = median(onRounds.map((r, i) => r.rps / offRounds[i].rps));
    const detail = { rounds: ROUNDS, scrapes, loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))), onRounds, offRounds };
    return [
      { name: "personal_info with /metrics on (median of rounds)", value: median(onRounds.map((r) => r.rps)), unit: "req/s", detail },
      { name: "personal_info with METRICS_ENABLED=false (median of rounds)", value: median(offRounds.map((r) => r.rps)), unit: "req/s" },
      { name: "with / without metrics throughput (median of per-round ratios)", value: ratio * 100, unit: "%", target: ">= 97 %", pass: ratio >= 0.97 },
    ];
  } finally {
    for (const s of [withMetrics, without]) {
      s.server.closeAllConnections();
      s.server.close();
    }
    await database.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
