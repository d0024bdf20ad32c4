-- Each try of a task on a GPU back end, oldest first: {"attempt", "workflow", "server", "at"} (the attempt is the task's
-- run number, a try is one server it was sent to within that run). The console's task view shows which workflow ran on
-- which server; before, a task whose template named no workflow showed none (docs/decisions/243). Owned by the
-- generation domain; appended by the worker, never rewritten.
ALTER TABLE "generation_tasks" ADD COLUMN "runs" JSONB NOT NULL DEFAULT '[]';
