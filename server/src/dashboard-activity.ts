import type { Db } from "./db/client.ts";
import { createCreatorFigures } from "./domains/creators/figures.service.ts";
import { createDashboardService, type DayCounts } from "./domains/dashboard/dashboard.service.ts";
import type { GenerationService } from "./domains/generation/generation.service.ts";
import type { MessagesService } from "./domains/messages/messages.service.ts";
import type { RewardsService } from "./domains/rewards/rewards.service.ts";
import { chatMediaCreditsPerDay, chatMediaPerDay } from "./domains/dashboard/dashboard.queries.ts";

/**
 * The console dashboard, wired with its activity per day (issue 32 item 8, docs/decisions/309): one line per series,
 * each counted by the domain that owns its rows. A new series is a line here and its name under
 * `console.dashboard.series` in the console's translations; the dashboard's chart and its answer take it from this list.
 */
export function createDashboard(
  db: Db,
  d: {
    generation: GenerationService;
    rewards: RewardsService;
    messages: Pick<MessagesService, "unlocksPerDay">;
  },
) {
  const creators = createCreatorFigures(db);
  const activity: Record<string, DayCounts> = {
    likes: d.generation.likesPerDay,
    remixes: d.generation.remixesPerDay,
    checkIns: d.rewards.checkInsPerDay,
    referrals: d.rewards.referralsPerDay,
    tips: creators.tipsPerDay,
    follows: creators.followsPerDay,
    unlocks: d.messages.unlocksPerDay,
    // pictures in chat are generation tasks carried by chat messages (issue 50): counted across both tables
    chatMedia: (sinceUtc) => chatMediaPerDay.rows(db, { sinceUtc }),
    chatMediaCredits: (sinceUtc) => chatMediaCreditsPerDay.rows(db, { sinceUtc }),
  };
  return createDashboardService(db, creators, activity);
}
