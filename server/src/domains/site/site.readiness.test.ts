import { pino } from "pino";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createTestDb, type TestApp, type TestDb, testConfig } from "../../../../tests/db-utils.ts";
import { freePort } from "../../../../tests/net-utils.ts";
import { startS3rver, type S3rverStore } from "../../../../tests/fixtures/s3rver.ts";
import { createApp } from "../../app.ts";
import { createDb } from "../../db/client.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe("GET /api/ready (issue 49 item 3)", () => {
  it("is 200 with every check when the database answers, every shipped migration is applied and the media folder is writable", async () => {
    const res = await t.http.get("/api/ready").expect(200);
    expect(res.body.data).toEqual({ status: "ready", database: true, migrations: true, storage: true });
  });

  it("is 503 naming the migrations while one this build ships is not applied, and 200 again once it is", async () => {
    const [last] = await t.db.$queryRaw<{ name: string; checksum: string }[]>`SELECT name, checksum FROM schema_migrations ORDER BY name DESC LIMIT 1`;
    await t.db.$executeRaw`DELETE FROM schema_migrations WHERE name = ${last.name}`;
    try {
      const res = await t.http.get("/api/ready").expect(503);
      expect(res.body).toEqual({ code: 503, msg: "Not ready", data: { database: true, migrations: false, storage: true } });
      // liveness is another question: the process is up and must not be restarted for this
      await t.http.get("/api/health").expect(200);
    } finally {
      await t.db.$executeRaw`INSERT INTO schema_migrations (name, checksum) VALUES (${last.name}, ${last.checksum})`;
    }
    await t.http.get("/api/ready").expect(200);
  });

  it("is 503 naming the database when it cannot be reached", async () => {
    const dead = createDb("postgresql://nobody:x@127.0.0.1:1/none", 1);
    try {
      const { app, services } = createApp({ db: dead, config: testConfig(), log: pino({ level: "silent" }) });
      const res = await supertest(app).get("/api/ready").expect(503);
      expect(res.body.data).toEqual({ database: false, migrations: false, storage: true });
      await services.close();
    } finally {
      await dead.$disconnect();
    }
  });

  describe("with STORAGE=s3", () => {
    let store: S3rverStore;
    let db: TestDb;
    beforeAll(async () => {
      store = await startS3rver();
      db = await createTestDb();
    });
    afterAll(async () => {
      await store?.close();
      await db?.drop();
    });

    it("is 200 while the bucket answers, 503 naming the storage when the store is down or the bucket is not there", async () => {
      const up = await createTestApp(store.env, db);
      const down = await createTestApp({ ...store.env, S3_ENDPOINT: `http://127.0.0.1:${await freePort()}` }, db);
      const noBucket = await createTestApp({ ...store.env, S3_BUCKET: "no-such-bucket" }, db);
      try {
        expect((await up.http.get("/api/ready").expect(200)).body.data.storage).toBe(true);
        expect((await down.http.get("/api/ready").expect(503)).body.data).toEqual({ database: true, migrations: true, storage: false });
        expect((await noBucket.http.get("/api/ready").expect(503)).body.data.storage).toBe(false);
      } finally {
        for (const a of [up, down, noBucket]) await a.close();
      }
    });
  });
});
