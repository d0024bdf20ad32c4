import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { MIGRATIONS_DIR, runMigrations } from "../../db/migrate.ts";

const PRICES_MIGRATION = "0221_product_prices_per_currency.sql";
const name = `t_prices_${crypto.randomBytes(4).toString("hex")}`;
const admin = () => new pg.Client({ connectionString: inject("pgAdminUrl") });

afterAll(async () => {
  const c = admin();
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await c.end();
});

describe("migration 0221 (decision 300)", () => {
  it("moves each existing product's one price, currency and sale price into its list of prices", async () => {
    const c = admin();
    await c.connect();
    await c.query(`CREATE DATABASE ${name}`);
    await c.end();
    const url = inject("pgAdminUrl").replace(/\/postgres$/, `/${name}`);
    // the schema as it stood before: every migration up to 0221, in a folder of their own
    const before = await fs.mkdtemp(path.join(os.tmpdir(), "migrations-"));
    const files = (await fs.readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith(".sql") && f < PRICES_MIGRATION);
    await Promise.all(files.map((f) => fs.copyFile(path.join(MIGRATIONS_DIR, f), path.join(before, f))));
    await runMigrations(url, before);
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      await db.query(`INSERT INTO products (code, name, credits, price_minor, currency, sale_price_minor, sale_starts_at, sale_ends_at)
        VALUES ('old_usd', 'Old', 50, 2999, 'USD', NULL, NULL, NULL), ('old_eur', 'Sale', 4, 380, 'eur', 189, now(), now() + interval '1 day')`);
      expect(await runMigrations(url)).toContain(PRICES_MIGRATION);
      const rows = (await db.query("SELECT code, prices FROM products ORDER BY code")).rows;
      expect(rows).toEqual([
        { code: "old_eur", prices: [{ currency: "EUR", priceMinor: 380, salePriceMinor: 189 }] },
        { code: "old_usd", prices: [{ currency: "USD", priceMinor: 2999, salePriceMinor: null }] },
      ]);
    } finally {
      await db.end();
      await fs.rm(before, { recursive: true, force: true });
    }
  }, 120_000);
});
