-- Worker heartbeats: a task whose worker died is run again within seconds, by a new job (docs/decisions/076).
ALTER TABLE "generation_tasks" ADD COLUMN     "heartbeat_at" TIMESTAMP(3),
ADD COLUMN     "job_id" UUID;

CREATE INDEX "generation_tasks_status_heartbeat_at_idx" ON "generation_tasks"("status", "heartbeat_at");

-- tasks running during the upgrade count as alive now; if their worker is gone they are recovered after the stale time
UPDATE "generation_tasks" SET "heartbeat_at" = now() WHERE "status" = 'running';
