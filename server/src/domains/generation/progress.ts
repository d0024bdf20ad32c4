import type { Logger } from "pino";
import type { Db, Tx } from "../../db/client.ts";
import { createListenHub } from "../../db/listen-hub.ts";

/** NOTIFY channel carrying task status and percentage to every API instance. */
export const PROGRESS_CHANNEL = "reverie_generation_progress";

export interface ProgressEvent {
  taskId: number;
  userId: number;
  /** Raw task status (queued, running, succeeded, failed, expired). */
  status: string;
  progress: number;
}

/** Publishes through PostgreSQL, so a browser connected to any API instance hears it. */
export async function publishProgress(db: Db | Tx, e: ProgressEvent): Promise<void> {
  await db.$executeRaw`SELECT pg_notify(${PROGRESS_CHANNEL}, ${JSON.stringify(e)})`;
}

/** Task progress for every API instance's SSE streams (one LISTEN connection per process). */
export function createProgressHub(databaseUrl: string | undefined, log: Logger) {
  return createListenHub<ProgressEvent>(PROGRESS_CHANNEL, databaseUrl, log);
}

export type ProgressHub = ReturnType<typeof createProgressHub>;
