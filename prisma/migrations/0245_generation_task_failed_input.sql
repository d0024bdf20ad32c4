-- Issue 44 item 3 (docs/decisions/335): a task that failed on its own input (its character model, photo, video, sound or
-- a value of its own) says which, so the person reads what to change instead of a generic failure. Null for every
-- other failure, and for every task before this change.
ALTER TABLE "generation_tasks" ADD COLUMN "failed_input" TEXT;
