-- GPU seconds each finished generation used, per workflow and resolution (issue 34, docs/decisions/239): the console
-- shows the measured cost per template beside its price. One row per task attempt that produced its result, taken
-- from ComfyUI's own execution_start/execution_success timestamps. Owned by the generation domain.
CREATE TABLE "gpu_runs" (
    "id" SERIAL NOT NULL,
    "task_id" INTEGER NOT NULL,
    "attempt" INTEGER NOT NULL,
    "template_id" INTEGER,
    "engine" TEXT NOT NULL,
    "workflow" TEXT NOT NULL,
    "resolution" TEXT,
    "units" INTEGER NOT NULL,
    "gpu_seconds" DOUBLE PRECISION NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "gpu_runs_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "gpu_runs_task_id_attempt_key" ON "gpu_runs"("task_id", "attempt");

CREATE INDEX "gpu_runs_template_id_created_at_idx" ON "gpu_runs"("template_id", "created_at");

ALTER TABLE "gpu_runs" ADD CONSTRAINT "gpu_runs_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "generation_tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;
