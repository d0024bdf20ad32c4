import type { Db } from "../../db/client.ts";
import { isDbReachable } from "../../db/client.ts";
import { migrationsApplied } from "../../db/migrate.ts";
import type { MediaStorage } from "../../storage/storage.ts";

/** How long one answer of the media store stands: shorter than a load balancer's probe interval. */
const STORE_CHECK_TTL_MS = 1_000;

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
export function createReadiness(d: { db: Db; storage: MediaStorage }, ttlMs = STORE_CHECK_TTL_MS): () => Promise<Readiness> {
  // the probe is public: the media store (a HeadBucket on S3, a request it bills) is asked once per short window
  let store: { at: number; reachable: Promise<boolean> } | undefined;
  const storeReachable = () => {
    if (!store || Date.now() - store.at >= ttlMs) store = { at: Date.now(), reachable: d.storage.reachable() };
    return store.reachable;
  };
  return async () => {
    const [database, storage] = await Promise.all([isDbReachable(d.db), storeReachable()]);
    return { database, migrations: database && (await migrationsApplied(d.db)), storage };
  };
}
