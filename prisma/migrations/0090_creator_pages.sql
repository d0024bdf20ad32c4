-- Issue 16: a creator page is published for one finished character model (its home link, name and cover), and its
-- link is unique without regard to case, as training's home links are.
ALTER TABLE "creator_pages" ADD COLUMN "character_model_id" INTEGER;

CREATE UNIQUE INDEX "creator_pages_character_model_id_key" ON "creator_pages"("character_model_id");

CREATE UNIQUE INDEX "creator_pages_home_link_lower_key" ON "creator_pages"(lower("home_link"));

ALTER TABLE "creator_pages" ADD CONSTRAINT "creator_pages_character_model_id_fkey" FOREIGN KEY ("character_model_id") REFERENCES "character_models"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- subscriber counts read the active rows of one page
CREATE INDEX "subscriptions_creator_page_id_active_idx" ON "subscriptions"("creator_page_id") WHERE "active";
