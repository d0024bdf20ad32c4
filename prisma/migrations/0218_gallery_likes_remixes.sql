-- A gallery you can respond to (issue 32 items 1 and 2, docs/decisions/299): likes, "popular this week", remixes.
-- Owned by the generation domain, which owns the shared creations. A like writes its row and the task's counts in one
-- statement, so the counts equal the rows under any concurrency.
ALTER TABLE "generation_tasks"
    ADD COLUMN "like_count" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "like_week" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "week_likes" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "remix_of_id" INTEGER,
    ADD COLUMN "remix_count" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "generation_tasks" ADD CONSTRAINT "generation_tasks_remix_of_id_fkey" FOREIGN KEY ("remix_of_id") REFERENCES "generation_tasks"("id") ON DELETE SET NULL ON UPDATE CASCADE;
-- a count never goes below zero, whatever a bug elsewhere does
ALTER TABLE "generation_tasks" ADD CONSTRAINT "generation_tasks_gallery_counts_check" CHECK ("like_count" >= 0 AND "week_likes" >= 0 AND "remix_count" >= 0);
CREATE INDEX "generation_tasks_remix_of_id_idx" ON "generation_tasks"("remix_of_id");

CREATE TABLE "gallery_likes" (
    "task_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "gallery_likes_pkey" PRIMARY KEY ("task_id","user_id"),
    CONSTRAINT "gallery_likes_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "generation_tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "gallery_likes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "gallery_likes_user_id_idx" ON "gallery_likes"("user_id");

-- The gallery's two orders over shared creations only (Prisma cannot express a partial index; schema.prisma says so on
-- the model): "popular this week" walks the first in order and stops after a page, whatever the number of likes. The
-- second also covers what the gallery's filters and count read, so its total is an index-only count.
CREATE INDEX "generation_tasks_gallery_popular_idx" ON "generation_tasks"("like_week" DESC, "week_likes" DESC, "id" DESC)
    WHERE "is_public" AND "state" = 'active' AND "status" = 'succeeded';
CREATE INDEX "generation_tasks_gallery_new_idx" ON "generation_tasks"("id" DESC) INCLUDE ("expires_at", "mode", "template_id")
    WHERE "is_public" AND "state" = 'active' AND "status" = 'succeeded';
