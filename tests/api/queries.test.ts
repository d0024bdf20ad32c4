import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isStatement } from "../../server/src/db/statement.ts";
import { PROJECT_DIR } from "../../server/src/paths.ts";
import { createTestDb, type TestDb } from "../db-utils.ts";

/** Every `<domain>.queries.ts` (and `<domain>.<use case>.queries.ts`) of server/src/domains, with its statements. */
async function declaredStatements() {
  const domains = path.join(PROJECT_DIR, "server/src/domains");
  const found: { name: string; statement: ReturnType<typeof asStatement> }[] = [];
  for (const domain of fs.readdirSync(domains)) {
    const dir = path.join(domains, domain);
    if (!fs.statSync(dir).isDirectory()) continue;
    for (const file of fs.readdirSync(dir).filter((f) => f.startsWith(`${domain}.`) && f.endsWith(".queries.ts"))) {
      const module = (await import(path.join(dir, file))) as Record<string, unknown>;
      const where = file.slice(0, -".queries.ts".length);
      for (const [name, value] of Object.entries(module)) if (isStatement(value)) found.push({ name: `${where}.${name}`, statement: asStatement(value) });
    }
  }
  return found;
}
const asStatement = (v: unknown) => {
  if (!isStatement(v)) throw new Error("not a statement");
  return v;
};

const statements = await declaredStatements();
let testDb: TestDb;
let client: pg.Client;
/** pg_type name by oid; enums are read as `enum`. */
const typeNames = new Map<number, string>();

beforeAll(async () => {
  testDb = await createTestDb();
  client = new pg.Client({ connectionString: testDb.url });
  await client.connect();
  const { rows } = await client.query<{ oid: number; name: string }>(
    "SELECT oid::int AS oid, CASE WHEN typtype = 'e' THEN 'enum' ELSE typname END AS name FROM pg_type",
  );
  for (const r of rows) typeNames.set(r.oid, r.name);
});
afterAll(async () => {
  await client?.end();
  await testDb?.drop();
});

describe("every domain statement against the migrated schema", () => {
  it("finds the statements (a test that finds none proves nothing)", () => {
    expect(statements.length).toBeGreaterThan(0);
  });

  it.each(statements.map((s) => [s.name, s.statement] as const))("%s returns the columns it declares", async (_name, s) => {
    await client.query("BEGIN");
    try {
      // foreign keys are triggers: off in this rolled-back transaction, so an example needs no rows of other tables
      await client.query("SET LOCAL session_replication_role = replica");
      const params = typeof s.example === "function" ? await (s.example as (c: pg.Client) => Promise<unknown>)(client) : s.example;
      const q = s.sql(params);
      const result = await client.query({ text: q.text, values: q.values });
      const returned = (result.fields ?? []).map((f) => [f.name, typeNames.get(f.dataTypeID) ?? String(f.dataTypeID)]);
      const declared = Object.entries(s.columns).map(([name, c]) => [name, c.types]);
      expect(returned.map(([n]) => n)).toEqual(declared.map(([n]) => n));
      for (const [i, [name, type]] of returned.entries()) expect(declared[i]![1], `column ${name} is ${type}`).toContain(type);
    } finally {
      await client.query("ROLLBACK");
    }
  });
});
