import { config } from "../config.ts";
import { createLogger } from "../logger.ts";
import { openDatabase } from "./database.ts";
import { seed } from "../../../prisma/seed.ts";

/** `npm run db:migrate` applies pending migrations; `npm run db:seed` also seeds. Both are idempotent. */
const command = process.argv[2];
if (command !== "migrate" && command !== "seed") {
  console.error("usage: cli.ts migrate|seed");
  process.exit(2);
}
const cfg = config();
const log = createLogger(cfg);
const database = await openDatabase(cfg, log);
try {
  if (command === "seed") await seed(database.db, { config: cfg, log });
  log.info(`${command} done`);
} finally {
  await database.close();
}
