import { z } from "zod";
import { FEED_MAX_PAGE, FEED_SOURCES } from "../../contract/creators.ts";
import { pageOf, pageQuery } from "../uploads/uploads.schema.ts";
import { libraryItemAnswer } from "./creators.schema.ts";

/** A page of the "Following" feed or of one's follows; the feed reads up to page × limit entries per follow, hence the bound. */
export const followsQuery = pageQuery.extend({
  page: z.coerce
    .number()
    .int()
    .min(1)
    .max(FEED_MAX_PAGE, { error: `page must be 1 to ${FEED_MAX_PAGE}` })
    .default(1),
});

// What the routes answer (docs/decisions/229).

/** get /api/Subscribe/feed: library entries as the creator's page shows them (members-only locked, no URL) */
export const feedAnswer = z.object({
  page: z.number(),
  limit: z.number(),
  list: z.array(
    libraryItemAnswer.extend({
      source: z.enum(FEED_SOURCES),
      creator: z.object({ home_link: z.string(), title: z.string() }),
    }),
  ),
});

/** get /api/Subscribe/following: the caller's own follows */
export const followingAnswer = pageOf(z.object({ home_link: z.string(), title: z.string(), since: z.string() }));
