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
import { hashToken } from "../server/src/domains/auth/tokens.ts";
import { freePort } from "../tests/net-utils.ts";
import type { BenchResult } from "./run.ts";

const SUBSCRIBERS = 10_000;
const ITEMS = 1_000;
const REQUESTS = 300;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * Issue 16: GET /api/Subscribe/getHomeLinkInfo for a page with 10,000 subscribers and 1,000 published creations in its
 * library (half members-only), asked by a subscriber who is a member (so the "subscribed" and membership lookups run
 * and members-only URLs are signed too), through the real Express app on a throw-away
 * embedded PostgreSQL. Target: p95 <= 30 ms.
 */
export default async function creatorsBench(): Promise<BenchResult[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-bench-creators-"));
  const pg = await startEmbeddedPostgres(path.join(dir, "pg"), await freePort());
  const db = createDb(pg.url, 10);
  try {
    await runMigrations(pg.url);
    await db.$executeRaw`
      INSERT INTO users (uuid, login_type, role, created_at, updated_at)
      SELECT gen_random_uuid(), 'registered', 'user', now(), now() FROM generate_series(1, ${SUBSCRIBERS + 1})`;
    const creatorId = 1;
    await db.$executeRaw`
      INSERT INTO creator_pages (user_id, home_link, title, bio, updated_at) VALUES (${creatorId}, 'BenchCreator', 'Bench Creator', 'A page with a long history', now())`;
    await db.$executeRaw`
      INSERT INTO subscriptions (creator_page_id, user_id, active) SELECT 1, u, true FROM generate_series(2, ${SUBSCRIBERS + 1}) u`;
    await db.$executeRaw`
      INSERT INTO generation_tasks (user_id, mode, engine, status, cost, input, output_key, is_public, created_at)
      SELECT ${creatorId}, 'text_to_image', 'local', 'succeeded', 1, '{}'::jsonb, 'media/1/item-' || i || '.jpg', true, now() - i * interval '1 minute'
      FROM generate_series(1, ${ITEMS}) i`;
    // every creation published to the page's library, every other one members-only; the fan asking is a member, so
    // members-only items are signed for them (decision 204)
    await db.$executeRaw`
      INSERT INTO creator_library_items (creator_page_id, task_id, visibility) SELECT 1, i, (CASE WHEN i % 2 = 0 THEN 'members' ELSE 'public' END)::"LibraryVisibility" FROM generate_series(1, ${ITEMS}) i`;
    await db.$executeRaw`
      INSERT INTO creator_memberships (creator_page_id, fan_user_id, price, paid_through) VALUES (1, 2, 10, now() + interval '30 days')`;
    await db.$executeRawUnsafe("VACUUM ANALYZE");

    const config = parseConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: path.join(dir, "data") });
    const { app, services } = createApp({ db, config, log: pino({ level: "silent" }) });
    const server = await new Promise<import("node:http").Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // a subscriber's session, as a fan opening the page would have
    const token = "bench-fan-token";
    await db.session.create({ data: { userId: 2, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + 86_400_000) } });

    const times: number[] = [];
    let answer: { subscriber_count?: number; library?: unknown[] } = {};
    for (let i = 0; i < REQUESTS + 20; i++) {
      const start = performance.now();
      const res = await fetch(`${url}/api/Subscribe/getHomeLinkInfo?home_link=benchcreator`, { headers: { token } });
      const body = (await res.json()) as { code: number; data: typeof answer };
      if (body.code !== 200) throw new Error(`getHomeLinkInfo answered ${JSON.stringify(body).slice(0, 200)}`);
      if (i >= 20) times.push(performance.now() - start);
      answer = body.data;
    }
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await services.close();
    times.sort((a, b) => a - b);
    const p95 = percentile(times, 95);
    const detail = {
      subscribers: answer.subscriber_count,
      libraryShown: answer.library?.length,
      items: ITEMS,
      requests: REQUESTS,
      loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))),
    };
    return [
      { name: "getHomeLinkInfo p50 (10,000 subscribers, 1,000 items)", value: percentile(times, 50), unit: "ms", detail },
      {
        name: "getHomeLinkInfo p95 (10,000 subscribers, 1,000 items)",
        value: p95,
        unit: "ms",
        target: "<= 30 ms",
        pass: p95 <= 30 && answer.subscriber_count === SUBSCRIBERS,
      },
    ];
  } finally {
    await db.$disconnect();
    await pg.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}
