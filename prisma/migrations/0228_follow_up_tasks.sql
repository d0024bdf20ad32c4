-- Follow-ups of a finished result (issue 33 items 5 and 6, docs/decisions/307): a task made from one of the person's
-- own finished tasks, extending its clip or making it 1080p. Owned by the generation domain. The link survives only
-- while the source exists: a deleted source leaves the follow-up with its own file and no link.
ALTER TABLE "generation_tasks"
    ADD COLUMN "follow_up" TEXT,
    ADD COLUMN "follow_up_of_id" INTEGER;
ALTER TABLE "generation_tasks" ADD CONSTRAINT "generation_tasks_follow_up_of_id_fkey" FOREIGN KEY ("follow_up_of_id") REFERENCES "generation_tasks"("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "generation_tasks_follow_up_of_id_idx" ON "generation_tasks"("follow_up_of_id");
