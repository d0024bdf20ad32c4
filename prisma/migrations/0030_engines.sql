-- Templates choose their engine and workflow (decision 080). One engine run per task at a time comes from the task's
-- attempt fence (decision 076), which decision 083 follows.
ALTER TABLE "templates" ADD COLUMN "engine" TEXT,
ADD COLUMN "workflow" TEXT;
