import type { Logger } from "pino";
import type { Config } from "../server/src/config.ts";
import type { Db } from "../server/src/db/client.ts";
import { seedStarterCharacters } from "../server/src/domains/chat/chat.seed.ts";
import { seedProducts } from "../server/src/domains/products/products.seed.ts";
import { seedChannels } from "../server/src/domains/site/site.seed.ts";
import { seedLegal } from "../server/src/domains/legal/legal.seed.ts";
import { seedStaff } from "../server/src/domains/staff/staff.seed.ts";
import { seedTemplates } from "../server/src/domains/templates/templates.seed.ts";

export interface SeedContext {
  config: Config;
  log: Logger;
}

/** Idempotent: every step creates only what is missing, so it runs at every start. */
export async function seed(db: Db, ctx: SeedContext): Promise<void> {
  await seedChannels(db);
  await seedLegal(db);
  await seedStaff(db, ctx);
  await seedTemplates(db, ctx);
  await seedProducts(db);
  await seedStarterCharacters(db, ctx);
}
