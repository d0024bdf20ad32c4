import { execFile } from "node:child_process";
import crypto from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { PROJECT_DIR } from "../../server/src/paths.ts";
import { createTestDb } from "../db-utils.ts";

const PRISMA = path.join(PROJECT_DIR, "node_modules", ".bin", "prisma");
const run = promisify(execFile);

/** What a schema is made of, as comparable strings: columns with type/null/default, indexes, constraints, enum values. */
async function catalogue(url: string): Promise<Set<string>> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const items = new Set<string>();
    const cols = await c.query(`SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default
      FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> 'schema_migrations'`);
    for (const r of cols.rows)
      items.add(`column ${r.table_name}.${r.column_name} ${r.data_type}/${r.udt_name} null=${r.is_nullable} default=${r.column_default}`);
    const idx = await c.query(`SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename <> 'schema_migrations'`);
    for (const r of idx.rows) items.add(`index ${r.indexdef}`);
    const cons = await c.query(`SELECT conrelid::regclass AS tbl, conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
      WHERE connamespace = 'public'::regnamespace AND conrelid <> 0 AND conrelid::regclass::text <> 'schema_migrations'`);
    for (const r of cons.rows) items.add(`constraint ${r.tbl}.${r.conname} ${r.def}`);
    const enums = await c.query(`SELECT t.typname, string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder) AS labels
      FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid GROUP BY t.typname`);
    for (const r of enums.rows) items.add(`enum ${r.typname} ${r.labels}`);
    return items;
  } finally {
    await c.end();
  }
}

const created: string[] = [];
afterAll(async () => {
  const admin = new pg.Client({ connectionString: inject("pgAdminUrl") });
  await admin.connect();
  for (const name of created) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
});

describe("prisma/migrations", () => {
  it("build everything prisma/schema.prisma describes (no schema change is left without its migration)", async () => {
    const adminUrl = inject("pgAdminUrl");
    // a copy of the migrated template, never the template itself: a session on the template would stop other test
    // files from cloning it meanwhile
    const migrated = await createTestDb();
    await migrated.db.$disconnect();
    created.push(new URL(migrated.url).pathname.slice(1));
    const migratedUrl = migrated.url;
    // The schema as Prisma would create it from scratch, in a database of its own.
    const { stdout: sql } = await run(PRISMA, ["migrate", "diff", "--from-empty", "--to-schema-datamodel", "prisma/schema.prisma", "--script"], {
      cwd: PROJECT_DIR,
      env: { ...process.env, DATABASE_URL: migratedUrl },
    });
    const fresh = `t_schema_${crypto.randomBytes(4).toString("hex")}`;
    created.push(fresh);
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${fresh}`);
    await admin.end();
    const freshUrl = adminUrl.replace(/\/postgres$/, `/${fresh}`);
    const c = new pg.Client({ connectionString: freshUrl });
    await c.connect();
    await c.query(sql);
    await c.end();

    const fromMigrations = await catalogue(migratedUrl);
    const fromSchema = await catalogue(freshUrl);
    // Migrations may add what Prisma cannot express (CHECKs, partial indexes); they must not miss anything.
    const missing = [...fromSchema].filter((item) => !fromMigrations.has(item)).sort();
    expect(missing).toEqual([]);
  }, 120_000);
});
