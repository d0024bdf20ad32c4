-- The console dashboard's activity per day (issue 32 item 8, docs/decisions/309): likes, tips and follows are counted
-- by creation time over the window, which without these indexes reads every row ever written (a million likes).
CREATE INDEX "gallery_likes_created_at_idx" ON "gallery_likes"("created_at");
CREATE INDEX "creator_tips_created_at_idx" ON "creator_tips"("created_at");
CREATE INDEX "subscriptions_created_at_idx" ON "subscriptions"("created_at");
