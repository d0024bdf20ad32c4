import type { Db } from "../../db/client.ts";
import { isDbReachable } from "../../db/client.ts";
import { migrationsApplied } from "../../db/migrate.ts";
import type { MediaStorage } from "../../storage/storage.ts";

/** What GET /api/ready checks: each true when this instance can serve by it. */
export interface Readiness {
  database: boolean;
  migrations: boolean;
  storage: boolean;
}

/**
 * Whether this instance can serve, for load balancers and orchestrators (issue 49): the database answers, every
 * migration this build ships is applied (an instance of a newer build waits for the one migrating), and the media store
 * answers. /api/health stays the liveness answer: a process that is up but not ready must not be restarted for it.
 */
export function createReadiness(d: { db: Db; storage: MediaStorage }): () => Promise<Readiness> {
  return async () => {
    const [database, storage] = await Promise.all([isDbReachable(d.db), d.storage.reachable()]);
    return { database, migrations: database && (await migrationsApplied(d.db)), storage };
  };
}
