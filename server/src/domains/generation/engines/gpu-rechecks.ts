import crypto from "node:crypto";
import pg from "pg";
import type { Logger } from "pino";
import { createListenHub } from "../../../db/listen-hub.ts";

/**
 * NOTIFY channel saying an operator checked GPU servers (the console's "Check now", `npm run gpu:check`): every API
 * instance and worker sharing the database checks them again at once, so what each engine offers follows the check
 * rather than a refusal seen before the fix (issue 44 item 6, decision 375).
 */
export const GPU_CHECKED_CHANNEL = "reverie_gpu_checked";

interface GpuChecked {
  urls: string[];
  /** The process that checked, which has already re-read the servers itself. */
  from?: string;
}

/** A failed LISTEN (the database not up yet) is tried again this often. */
const RETRY_MS = 10_000;

/**
 * Shares operators' checks between the processes: `announce` re-reads the servers here, then tells the others;
 * hearing another's check re-reads the servers it named. Without a database URL (a lone process) only this one re-reads.
 */
export function shareGpuChecks(databaseUrl: string | undefined, log: Logger, recheck: (urls: string[]) => Promise<void>) {
  const origin = crypto.randomUUID();
  const hub = databaseUrl ? createListenHub<GpuChecked>(GPU_CHECKED_CHANNEL, databaseUrl, log) : undefined;
  let retry: NodeJS.Timeout | undefined;
  const heard = (e: GpuChecked) => {
    if (e.from === origin || !Array.isArray(e.urls)) return;
    recheck(e.urls.map(String)).catch((err: unknown) => log.warn({ err }, "re-checking GPU servers after an operator's check failed"));
  };
  const listen = () =>
    hub?.subscribe(heard).catch((err: unknown) => {
      log.warn({ err }, "GPU checks: LISTEN failed; other instances' checks reach this one at its next workflow check");
      retry = setTimeout(listen, RETRY_MS);
      retry.unref();
    });
  void listen();
  return {
    async announce(urls: string[]) {
      await recheck(urls);
      await hub
        ?.publish({ urls, from: origin } satisfies GpuChecked)
        .catch((err: unknown) => log.warn({ err }, "could not tell other instances of a GPU check"));
    },
    async close() {
      clearTimeout(retry);
      await hub?.close();
    },
  };
}

/** Tells every running instance that `urls` were checked (`npm run gpu:check`, a process with no engine of its own). */
export async function announceGpuCheck(databaseUrl: string, urls: string[]): Promise<void> {
  const c = new pg.Client({ connectionString: databaseUrl, application_name: "reverie-gpu-check", connectionTimeoutMillis: 5_000 });
  await c.connect();
  try {
    await c.query("SELECT pg_notify($1, $2)", [GPU_CHECKED_CHANNEL, JSON.stringify({ urls } satisfies GpuChecked)]);
  } finally {
    await c.end();
  }
}
