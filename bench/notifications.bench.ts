import fs from "node:fs/promises";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { BenchResult } from "./run.ts";
import { createApp } from "../server/src/app.ts";
import { parseConfig } from "../server/src/config.ts";
import { openDatabase } from "../server/src/db/database.ts";
import { createLogger } from "../server/src/logger.ts";
import { seedProducts } from "../server/src/domains/products/products.seed.ts";
import { startFakePagsmile, type FakeTrade } from "../tests/fixtures/fake-pagsmile.ts";
import { freePort } from "../tests/net-utils.ts";

const run = promisify(execFile);
const ORDERS = 1_500;
/** Every order's notification is delivered this often (the provider retrying): only the first may credit. */
const DELIVERIES = 2;
const CONCURRENCY = 32;
const TARGET_PER_SECOND = 300;
const APP_ID = "1625829214531663";
const KEY = "Pagsmile_sk_bench";

/**
 * Pagsmile notifications through the whole HTTP path of one instance (JSON body kept raw, HMAC-SHA256 over it,
 * timestamp tolerance, payment event insert, order lock, ledger grant, status change), each delivered twice from a
 * separate process. Afterwards every order must be paid exactly once.
 */
/** Posts every delivery from a child process, CONCURRENCY in flight; answers deliveries/s and how many were not 200 "success". */
async function deliver(url: string, file: string): Promise<{ perSecond: number; refused: number }> {
  const script = `
    const fs = await import("node:fs");
    const deliveries = JSON.parse(fs.readFileSync(${JSON.stringify(file)}, "utf8"));
    let next = 0, refused = 0;
    const started = performance.now();
    await Promise.all(Array.from({ length: ${CONCURRENCY} }, async () => {
      for (let i = next++; i < deliveries.length; i = next++) {
        const res = await fetch(${JSON.stringify(url)}, { method: "POST", headers: deliveries[i].headers, body: deliveries[i].body });
        if (res.status !== 200 || (await res.text()) !== "success") refused++;
      }
    }));
    process.stdout.write(JSON.stringify({ perSecond: deliveries.length / ((performance.now() - started) / 1000), refused }));`;
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout) as { perSecond: number; refused: number };
}

export default async function notificationsBench(): Promise<BenchResult[]> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-bench-notify-"));
  const signer = await startFakePagsmile({ appId: APP_ID, securityKey: KEY });
  const config = parseConfig({
    NODE_ENV: "production",
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
    LOG_LEVEL: "info",
    PAGSMILE_APP_ID: APP_ID,
    PAGSMILE_SECURITY_KEY: KEY,
    PAGSMILE_API_BASE: signer.url,
  });
  const log = createLogger(config, "/dev/null");
  const database = await openDatabase(config, log);
  const { db } = database;
  const { app, services } = createApp({ db, config, log });
  const server: Server = await new Promise((r) => {
    const s = app.listen(0, "127.0.0.1", () => r(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/order/pagsmileNotify`;
  try {
    await seedProducts(db);
    const product = await db.product.findUniqueOrThrow({ where: { code: "credits_150" } });
    const users = await db.user.createManyAndReturn({ data: Array.from({ length: ORDERS }, () => ({})), select: { id: true } });
    const expiresAt = new Date(Date.now() + 3_600_000);
    const orders = await db.order.createManyAndReturn({
      data: users.map((u, i) => ({
        orderNo: `BENCH${i}`,
        userId: u.id,
        productId: product.id,
        productName: product.name,
        amountMinor: 1299,
        finalPriceMinor: 1299,
        currency: "USD",
        credits: 150,
        provider: "pagsmile",
        providerRef: `T${i}`,
        expiresAt,
      })),
      select: { id: true, orderNo: true, providerRef: true, userId: true },
    });
    // signed before the clock starts: signing is the provider's work, not ours
    const trade = (o: (typeof orders)[number]): FakeTrade => ({
      trade_no: o.providerRef!,
      out_trade_no: o.orderNo,
      app_id: APP_ID,
      kind: "create",
      method: "CreditCard",
      order_amount: "12.99",
      order_currency: "USD",
      trade_status: "SUCCESS",
      notify_url: url,
      return_url: "",
      buyer_id: String(o.userId),
      refunds: [],
    });
    const one = orders.map((o) => signer.notification(trade(o)));
    const deliveries = Array.from({ length: DELIVERIES }, () => one).flat();

    // The provider side runs in its own process, so the load generator does not share the server's event loop.
    const file = path.join(dataDir, "deliveries.json");
    await fs.writeFile(file, JSON.stringify(deliveries));
    // The server's CPU time per delivery: on a machine shared with other work the rate mostly measures the neighbours,
    // this measures the path (its inverse bounds the rate one core can reach).
    const cpuBefore = process.cpuUsage();
    const { perSecond, refused } = await deliver(url, file);
    const cpu = process.cpuUsage(cpuBefore);
    const cpuMsPerDelivery = (cpu.user + cpu.system) / 1000 / deliveries.length;

    // reference in the same run and machine state: bare ledger grants (one autocommit statement each), same concurrency
    let g = 0;
    const grantStarted = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = g++; i < ORDERS; i = g++)
          await services.credits.grant({ userId: users[i].id, amount: 1, reason: "bench", idempotencyKey: `bench-ref:${i}` });
      }),
    );
    const grantsPerSecond = ORDERS / ((performance.now() - grantStarted) / 1000);

    const paid = await db.order.count({ where: { id: { in: orders.map((o) => o.id) }, status: "paid" } });
    const purchases = await db.ledgerEntry.count({ where: { userId: { in: users.map((u) => u.id) }, reason: "purchase" } });
    const mismatches = await services.credits.findLedgerMismatches(users.map((u) => u.id));
    const exactlyOnce = refused === 0 && paid === ORDERS && purchases === ORDERS && mismatches.length === 0;
    return [
      {
        name: "verified Pagsmile notifications/s, one instance (each order notified twice)",
        value: perSecond,
        unit: "notifications/s",
        target: `>= ${TARGET_PER_SECOND}/s with every order credited exactly once`,
        pass: perSecond >= TARGET_PER_SECOND && exactlyOnce,
        detail: {
          deliveries: deliveries.length,
          orders: ORDERS,
          concurrency: CONCURRENCY,
          refused,
          paid,
          purchases,
          ledgerMismatches: mismatches.length,
          cpuMsPerDelivery,
          loadAverage: os.loadavg()[0],
          cpus: os.cpus().length,
        },
      },
      { name: "server CPU per delivery (the API process, all threads)", value: cpuMsPerDelivery, unit: "ms" },
      {
        name: "reference: ledger grants/s in the same run (one statement each)",
        value: grantsPerSecond,
        unit: "grants/s",
        detail: { grants: ORDERS, concurrency: CONCURRENCY },
      },
    ];
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
    await services.close();
    await database.close();
    await signer.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
