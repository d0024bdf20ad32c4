import crypto from "node:crypto";
import fs from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import { createApp } from "../server/src/app.ts";
import { parseConfig } from "../server/src/config.ts";
import { createDb } from "../server/src/db/client.ts";
import { startEmbeddedPostgres } from "../server/src/db/embedded.ts";
import { runMigrations } from "../server/src/db/migrate.ts";
import { hashPassword } from "../server/src/domains/auth/password.ts";
import { newTotpSecret, totpCode } from "../server/src/domains/auth/totp.ts";
import type { BenchResult } from "./run.ts";

const ORDERS = 100_000;
const TASKS = 200_000;
const USERS = 20_000;
const REQUESTS = 200;
const PG_PORT = Number(process.env.BENCH_PG_PORT ?? 55104);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * GET /admin/api/dashboard (30 days) against 100,000 orders and 200,000 generation tasks spread over 90 days,
 * through the real Express app on a throw-away embedded PostgreSQL. Target: p95 <= 200 ms.
 */
export default async function dashboardBench(): Promise<BenchResult[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-bench-dashboard-"));
  const pg = await startEmbeddedPostgres(path.join(dir, "pg"), PG_PORT);
  const db = createDb(pg.url, 10);
  try {
    await runMigrations(pg.url);
    const t0 = Date.now();
    await db.$executeRaw`INSERT INTO products (code, name, credits, prices) VALUES ('bench', 'Bench', 100, '[{"currency": "USD", "priceMinor": 999, "salePriceMinor": null}]')`;
    await db.$executeRaw`
      INSERT INTO users (uuid, login_type, role, created_at, updated_at)
      SELECT gen_random_uuid(), (ARRAY['visitor','noRegister','registered'])[1 + i % 3]::"LoginType", 'user', now() - (i % 90) * interval '1 day' - (i % 1440) * interval '1 minute', now()
      FROM generate_series(1, ${USERS}) i`;
    await db.$executeRaw`
      INSERT INTO orders (order_no, user_id, product_id, amount_minor, final_price_minor, currency, credits, status, provider, channel_id, created_at, updated_at, paid_at, expires_at)
      SELECT 'B' || i, 1 + i % ${USERS}, 1, 999, 499 + (i % 7) * 100, 'USD', 100,
             s.status, (ARRAY['stripe','paypal','sandbox','pagsmile','usdt'])[1 + i % 5], 'default', s.at, s.at,
             CASE WHEN s.status = 'paid' THEN s.at END, s.at + interval '15 minutes'
      FROM generate_series(1, ${ORDERS}) i,
           LATERAL (SELECT (ARRAY['paid','paid','paid','failed','pending','expired','3ds_pending','refunded'])[1 + i % 8]::"OrderStatus" AS status,
                           now() - (i % 90) * interval '1 day' - (i % 1440) * interval '1 minute' AS at) s`;
    await db.$executeRaw`
      INSERT INTO generation_tasks (user_id, mode, engine, status, cost, input, created_at)
      SELECT 1 + i % ${USERS}, (ARRAY['image_to_video','audio_overlay','video_to_video','text_to_video','role_video','text_to_image','image_batch'])[1 + i % 7]::"GenerationMode",
             'local', (ARRAY['succeeded','succeeded','succeeded','failed','queued','running','expired'])[1 + (i / 7) % 7]::"TaskStatus", 1, '{}'::jsonb,
             now() - (i % 90) * interval '1 day' - (i % 1440) * interval '1 minute'
      FROM generate_series(1, ${TASKS}) i`;
    await db.$executeRaw`
      INSERT INTO reports (target_type, target_id, reason, status, created_at)
      SELECT 'task', i, (ARRAY['underage','non_consensual','other'])[1 + i % 3]::"ReportReason", (ARRAY['open','dismissed','actioned'])[1 + i % 3]::"ReportStatus", now() - i * interval '7 minutes'
      FROM generate_series(1, 3000) i`;
    // what autovacuum does soon after a bulk load: statistics and the visibility map index-only scans rely on
    await db.$executeRawUnsafe("VACUUM ANALYZE");
    const seedMs = Date.now() - t0;

    const config = parseConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: path.join(dir, "data") });
    const { app } = createApp({ db, config, log: pino({ level: "silent" }) });
    const server = await new Promise<import("node:http").Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const secret = newTotpSecret();
    const password = crypto.randomBytes(12).toString("hex");
    await db.staff.create({ data: { username: "bench-admin", passwordHash: await hashPassword(password), totpSecret: secret, roles: ["admin"] } });
    const login = (await (
      await fetch(`${url}/admin/api/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: "bench-admin", password, code: totpCode(secret) }),
      })
    ).json()) as { data: { token: string } };
    const headers = { token: login.data.token };

    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < REQUESTS + 10; i++) {
      const start = performance.now();
      const res = await fetch(`${url}/admin/api/dashboard?days=30`, { headers });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`dashboard answered ${res.status}: ${body}`);
      if (i >= 10) times.push(performance.now() - start);
      bytes = body.length;
    }
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    times.sort((a, b) => a - b);
    const p95 = percentile(times, 95);
    const detail = { orders: ORDERS, tasks: TASKS, users: USERS, requests: REQUESTS, seedMs, responseBytes: bytes };
    return [
      { name: "dashboard p50", value: percentile(times, 50), unit: "ms", detail },
      { name: "dashboard p95", value: p95, unit: "ms", target: "<= 200 ms", pass: p95 <= 200, detail },
      { name: "dashboard max", value: times[times.length - 1], unit: "ms" },
    ];
  } finally {
    await db.$disconnect();
    await pg.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}
