-- Following creators and the "Following" feed (issue 32 item 3, docs/decisions/309). A follow is the creator page's
-- subscription row (creators domain); these indexes serve one person's follows, the newest shared creations of one
-- creator and the newest library items of one page, so a feed page reads a few index entries per followed creator.
CREATE INDEX "subscriptions_follower_idx" ON "subscriptions"("user_id", "creator_page_id") WHERE "active";
-- literal predicates, as the gallery's (0218): the feed's statement writes the same filter in its SQL
CREATE INDEX "generation_tasks_shared_by_owner_idx" ON "generation_tasks"("user_id", "created_at" DESC)
    WHERE "is_public" AND "state" = 'active' AND "status" = 'succeeded';
CREATE INDEX "creator_library_items_creator_page_id_created_at_idx" ON "creator_library_items"("creator_page_id", "created_at");
