import type PgBoss from "pg-boss";
import type { Logger } from "pino";
import { logConnectionEnded, serverGone } from "../../logger.ts";
import { createQueueOnce } from "../generation/queue.ts";
import { utcDay, type NotificationDigests } from "./notifications.digest.ts";

/** Sends one UTC day's email digests (docs/decisions/312). */
export const DIGEST_QUEUE = "notification-digests";
/** How often a worker offers the day's digest job: the first offer after midnight (UTC) sends the day's digests. */
const OFFER_MS = 3600_000;

interface DigestJob {
  day: string;
}

/**
 * The daily digest on the pg-boss generation runs (its producer instance: no second pool). Every process that runs the
 * worker offers the day's job each hour under one singleton key, so the day's job is queued once while it waits or
 * runs; the run itself claims each account's day, so a second run (two workers, a retry) sends nothing again.
 */
export function startDigestJobs(boss: () => Promise<PgBoss>, digests: Pick<NotificationDigests, "run">, log: Logger) {
  let timer: NodeJS.Timeout | undefined;
  const started = boss().then(async (b) => {
    await createQueueOnce(b, DIGEST_QUEUE);
    await b.work<DigestJob>(DIGEST_QUEUE, { batchSize: 1 }, async ([job]) => {
      const sent = await digests.run(job!.data.day);
      if (sent) log.info({ day: job!.data.day, sent }, "notification digests sent");
    });
    const offer = () => {
      const day = utcDay(new Date());
      void b
        .send(DIGEST_QUEUE, { day } satisfies DigestJob, { singletonKey: day, retryLimit: 3, retryDelay: 300, expireInSeconds: 3600 })
        // a terminal's Ctrl-C reaches PostgreSQL too, and may end it while an offer is on its way: that is the stop
        .catch((err: unknown) => (serverGone(err) ? logConnectionEnded(log, "digest offer", err) : log.error({ err }, "notification digest job not queued")));
    };
    offer();
    timer = setInterval(offer, OFFER_MS);
    timer.unref();
  });
  return {
    started,
    stop: () => clearInterval(timer),
  };
}
