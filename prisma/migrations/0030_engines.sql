-- Templates choose their engine and workflow (decision 080); a task records its current engine run, so two workers
-- never hand one task to an engine twice (decision 083).
ALTER TABLE "templates" ADD COLUMN "engine" TEXT,
ADD COLUMN "workflow" TEXT;

ALTER TABLE "generation_tasks" ADD COLUMN "run_seq" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "run_at" TIMESTAMP(3);
