import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../../tests/db-utils.ts";
import { MIGRATIONS_DIR, migrationPlan } from "./migrate.ts";
import { classifyMigration } from "./migration-safety.ts";

/** Decision 384: which migrations may run while the previous build serves, and `npm run db:migrate -- --plan`. */
describe("classifyMigration", () => {
  it("calls additive what the old build neither reads nor breaks", () => {
    const sql = `-- a new table, a defaulted column, an index
      CREATE TABLE "notes" ("id" SERIAL NOT NULL, "body" TEXT NOT NULL, CONSTRAINT "notes_pkey" PRIMARY KEY ("id"));
      ALTER TABLE "notes" ADD CONSTRAINT "notes_body_check" CHECK (length("body") > 0);
      ALTER TABLE "users" ADD COLUMN "motto" TEXT, ADD COLUMN "stars" INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE "users" ALTER COLUMN "nickname" DROP NOT NULL;
      ALTER TABLE "orders" ADD CONSTRAINT "orders_positive" CHECK ("credits" > 0) NOT VALID;
      CREATE INDEX CONCURRENTLY "users_motto_idx" ON "users"("motto");
      UPDATE "users" SET "stars" = 1 WHERE "id" = 1;
      DO $$ BEGIN PERFORM 1; END $$;
      COMMENT ON TABLE "notes" IS 'drop table users; is only text';`;
    // DO blocks are not known to be additive: read by a person
    expect(classifyMigration(sql.replace(/DO \$\$.*\$\$;/, ""))).toEqual({ kind: "additive", reasons: [] });
    expect(classifyMigration(sql).reasons).toEqual(["DO $BODY$: not known to be additive"]);
  });

  it("calls breaking each statement that breaks the running build, and says why", () => {
    const verdict = classifyMigration(`
      ALTER TABLE "products" RENAME COLUMN "ends_at" TO "sale_ends_at";
      ALTER TABLE "products" DROP COLUMN "was_price";
      ALTER TABLE "orders" ALTER COLUMN "product_name" SET NOT NULL;
      ALTER TABLE "orders" ALTER COLUMN "amount" TYPE BIGINT;
      ALTER TABLE "users" ADD COLUMN "country" TEXT NOT NULL;
      ALTER TABLE "orders" ADD CONSTRAINT "orders_positive" CHECK ("credits" > 0);
      DROP TABLE "old_things";
      DELETE FROM "sessions";`);
    expect(verdict.kind).toBe("breaking");
    expect(verdict.reasons.map((r) => r.split(": ").at(-1))).toEqual([
      "renames",
      "drops a column",
      "makes a column required",
      "changes a column's type",
      "adds a required column without a default",
      "adds a constraint the old build's writes may not meet",
      "removes what the old build may use",
      "removes what the old build may use",
    ]);
  });

  it("knows the shipped history: the products catalogue rework broke the old build, chat media's new table did not", async () => {
    const read = (f: string) => fs.readFile(path.join(MIGRATIONS_DIR, f), "utf8");
    expect(classifyMigration(await read("0205_products_catalogue.sql")).kind).toBe("breaking");
    expect(classifyMigration(await read("0255_check_in_signals.sql")).kind).toBe("additive");
  });
});

describe("migrationPlan", () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(() => t.drop());

  it("lists what the database lacks, each with its verdict, and nothing when it has them all", async () => {
    expect(await migrationPlan(t.url)).toEqual([]);
    await t.db.$executeRaw`DELETE FROM schema_migrations WHERE name IN ('0205_products_catalogue.sql', '0255_check_in_signals.sql')`;
    const plan = await migrationPlan(t.url);
    expect(plan.map((m) => [m.file, m.kind])).toEqual([
      ["0205_products_catalogue.sql", "breaking"],
      ["0255_check_in_signals.sql", "additive"],
    ]);
    expect(plan[0]!.reasons.length).toBeGreaterThan(0);
  });
});
