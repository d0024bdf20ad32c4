import { config } from "../config.ts";
import { createLogger } from "../logger.ts";
import { openDatabase } from "./database.ts";
import { migrationPlan } from "./migrate.ts";
import { seed } from "../../../prisma/seed.ts";

/**
 * `npm run db:migrate` applies pending migrations; `npm run db:seed` also seeds. Both are idempotent.
 * `npm run db:migrate -- --plan` changes nothing: it lists the migrations DATABASE_URL's database lacks, each
 * `additive` (safe while the running build serves) or `breaking` (stop the old instances first), decision 384.
 */
const command = process.argv[2];
if (command !== "migrate" && command !== "seed") {
  console.error("usage: cli.ts migrate [--plan] | seed");
  process.exit(2);
}
const cfg = config();
if (process.argv.includes("--plan")) {
  if (!cfg.DATABASE_URL) {
    console.error("--plan reads the database DATABASE_URL names: set it");
    process.exit(2);
  }
  const plan = await migrationPlan(cfg.DATABASE_URL);
  if (!plan.length) console.log("nothing to apply: the database has every migration this build ships");
  for (const m of plan) {
    console.log(`${m.kind.padEnd(9)} ${m.file}`);
    for (const r of m.reasons) console.log(`          ${r}`);
  }
  const breaking = plan.filter((m) => m.kind === "breaking").length;
  if (plan.length)
    console.log(
      breaking ? `${breaking} breaking: stop every running instance and worker before the first new one starts` : "all additive: upgrade instance by instance",
    );
  process.exit(0);
}
const log = createLogger(cfg);
const database = await openDatabase(cfg, log);
try {
  if (command === "seed") await seed(database.db, { config: cfg, log });
  log.info(`${command} done`);
} finally {
  await database.close();
}
