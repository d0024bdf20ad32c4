import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { MIGRATIONS_DIR, runMigrations } from "../../db/migrate.ts";
import { SEED_BANNER_TITLES } from "../templates/templates.translations.seed.ts";

const MIGRATION = "0215_banner_titles.sql";
const name = `t_banners_${crypto.randomBytes(4).toString("hex")}`;
const adminUrl = inject("pgAdminUrl");
const url = adminUrl.replace(/\/postgres$/, `/${name}`);

async function admin(sql: string) {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  await c.query(sql);
  await c.end();
}
afterAll(() => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));

/** Migration 0215 on an install that has banners from before it (issue 31 item 7). */
describe(`migration ${MIGRATION}`, () => {
  it("keeps every banner's text as its English caption; the seeded ones get their translations and a picture without words", async () => {
    await admin(`CREATE DATABASE ${name}`);
    // the migrations up to this one, in a folder of their own: later ones are not this test's
    const upTo = await fs.mkdtemp(path.join(os.tmpdir(), "migrations-"));
    for (const file of (await fs.readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith(".sql") && f < MIGRATION))
      await fs.symlink(path.join(MIGRATIONS_DIR, file), path.join(upTo, file));
    await runMigrations(url, upTo);
    await fs.symlink(path.join(MIGRATIONS_DIR, MIGRATION), path.join(upTo, MIGRATION));

    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      await c.query(`INSERT INTO banners (title, image_url, shows_prices) VALUES
        ('Turn a photo into a video', 'site/banners/welcome.jpg', false),
        ('New motion templates', 'site/banners/templates.jpg', false),
        ('Credit packs and prices', 'site/banners/prices.jpg', true),
        ('Fresh motion templates', 'site/banners/templates.jpg', false),
        ('Spring sale', '/media/banners/spring.webp', false)`);
      expect(await runMigrations(url, upTo)).toEqual([MIGRATION]);
      const { rows } = await c.query("SELECT title, titles, image_url FROM banners ORDER BY id");
      expect(rows).toEqual([
        { title: "Turn a photo into a video", titles: SEED_BANNER_TITLES.welcome, image_url: "site/banners/welcome-plain.jpg" },
        { title: "New motion templates", titles: SEED_BANNER_TITLES.templates, image_url: "site/banners/templates-plain.jpg" },
        { title: "Credit packs and prices", titles: SEED_BANNER_TITLES.prices, image_url: "site/banners/prices-plain.jpg" },
        // a seeded banner whose text staff changed is theirs: kept as they left it
        { title: "Fresh motion templates", titles: {}, image_url: "site/banners/templates.jpg" },
        { title: "Spring sale", titles: {}, image_url: "/media/banners/spring.webp" },
      ]);
    } finally {
      await c.end();
      await fs.rm(upTo, { recursive: true });
    }
  }, 120_000);
});
