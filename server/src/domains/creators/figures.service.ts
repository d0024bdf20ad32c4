import type { Db } from "../../db/client.ts";
import { newFollowsPerDay, newPagesPerDay, requestsPerDay, tipsPerDay } from "./creators.queries.ts";

/**
 * Creator figures for the console dashboard (issue 16 item 6), counted from the creators domain's own rows per UTC
 * day since `sinceUtc` (UTC wall-clock text, as the dashboard compares its TIMESTAMP columns).
 */
export function createCreatorFigures(db: Db) {
  return {
    async perDay(sinceUtc: string) {
      const [pages, requests] = await Promise.all([newPagesPerDay.rows(db, { sinceUtc }), requestsPerDay.rows(db, { sinceUtc })]);
      return { newPages: pages, requests };
    },
    // the dashboard's activity series (docs/decisions/309)
    followsPerDay: (sinceUtc: string) => newFollowsPerDay.rows(db, { sinceUtc }),
    tipsPerDay: (sinceUtc: string) => tipsPerDay.rows(db, { sinceUtc }),
  };
}

export type CreatorFigures = ReturnType<typeof createCreatorFigures>;
