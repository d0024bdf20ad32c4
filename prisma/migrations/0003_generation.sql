-- Generation results expire by (status = 'succeeded', expires_at <= now()); the worker's sweep reads this every minute.
-- CreateIndex
CREATE INDEX "generation_tasks_status_expires_at_idx" ON "generation_tasks"("status", "expires_at");
