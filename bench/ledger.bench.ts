import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createDb } from "../server/src/db/client.ts";
import { startEmbeddedPostgres } from "../server/src/db/embedded.ts";
import { runMigrations } from "../server/src/db/migrate.ts";
import { createAuditService } from "../server/src/domains/audit/audit.service.ts";
import { createCreditsService, type CreditsService } from "../server/src/domains/credits/credits.service.ts";
import { createMetrics } from "../server/src/metrics/metrics.ts";
import { freePort } from "../tests/net-utils.ts";
import type { BenchResult } from "./run.ts";

const CONCURRENCY = 32;
const ONE_ACCOUNT_CHARGES = 2_000;
const ACCOUNTS = 1_000;
const SPREAD_CHARGES = 10_000;
const TARGET_PER_SECOND = 500;

/** Runs `total` charges with CONCURRENCY in flight; returns charges per second. */
async function chargeRun(credits: CreditsService, total: number, userFor: (i: number) => number, tag: string): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < total; i = next++) {
        await credits.charge({ userId: userFor(i), amount: 1, reason: "bench", idempotencyKey: `${tag}:${i}` });
      }
    }),
  );
  return total / ((performance.now() - started) / 1000);
}

/** Ledger charges per second on one hot account and spread over 1,000 accounts, with the ledger invariant checked after. */
export default async function ledgerBench(): Promise<BenchResult[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-bench-ledger-"));
  const pg = await startEmbeddedPostgres(path.join(dir, "pg"), await freePort());
  const db = createDb(pg.url, CONCURRENCY + 4);
  try {
    await runMigrations(pg.url);
    const credits = createCreditsService(db, createAuditService(db), createMetrics().ledger);
    const ids = (await db.user.createManyAndReturn({ data: Array.from({ length: ACCOUNTS }, () => ({})), select: { id: true } })).map((u) => u.id);
    for (const id of ids)
      await credits.grant({ userId: id, amount: ONE_ACCOUNT_CHARGES + SPREAD_CHARGES, reason: "bench", idempotencyKey: `bench-seed:${id}` });

    const hot = await chargeRun(credits, ONE_ACCOUNT_CHARGES, () => ids[0], "hot");
    const spread = await chargeRun(credits, SPREAD_CHARGES, (i) => ids[i % ACCOUNTS], "spread");
    const mismatches = await credits.findLedgerMismatches();
    const seeded = ACCOUNTS * (ONE_ACCOUNT_CHARGES + SPREAD_CHARGES);
    const total = await db.user.aggregate({ where: { id: { in: ids } }, _sum: { points: true } });
    const invariantHolds = mismatches.length === 0 && total._sum.points === seeded - ONE_ACCOUNT_CHARGES - SPREAD_CHARGES;
    return [
      { name: "ledger charges/s, one account", value: hot, unit: "charges/s", detail: { charges: ONE_ACCOUNT_CHARGES, concurrency: CONCURRENCY } },
      {
        name: `ledger charges/s, across ${ACCOUNTS} accounts`,
        value: spread,
        unit: "charges/s",
        target: `>= ${TARGET_PER_SECOND}/s with ledger sum == balance`,
        pass: spread >= TARGET_PER_SECOND && invariantHolds,
        detail: { charges: SPREAD_CHARGES, concurrency: CONCURRENCY, ledgerMismatches: mismatches.length, invariantHolds },
      },
    ];
  } finally {
    await db.$disconnect();
    await pg.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}
