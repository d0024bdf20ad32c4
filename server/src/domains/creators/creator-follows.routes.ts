import type { ApiRouter } from "../../http/api.ts";
import { feedAnswer, followingAnswer, followsQuery } from "./creator-follows.schema.ts";
import type { CreatorsService } from "./creators.service.ts";

/** What following creators gives the follower (issue 32 item 3, docs/decisions/309); following itself is `binding`. */
export function followsRoutes(api: ApiRouter, creators: CreatorsService) {
  const tags = ["creators"];
  api.get(
    "/api/Subscribe/feed",
    {
      summary: 'The caller\'s "Following" feed: newest shared creations and library items of the pages they follow (members-only ones locked unless a member)',
      tags,
      auth: "user",
      can: ["read", "Follow"],
      query: followsQuery,
      response: feedAnswer,
    },
    ({ principal, query }) => creators.feed(principal.userId, query),
  );
  api.get(
    "/api/Subscribe/following",
    {
      summary: "The pages the caller follows (only the caller's own: nobody reads another account's follows)",
      tags,
      auth: "user",
      can: ["read", "Follow"],
      query: followsQuery,
      response: followingAnswer,
    },
    ({ principal, query }) => creators.following(principal.userId, query),
  );
}
