import { IMAGE_MODES } from "../../contract/generation.ts";
import type { GenerationTask } from "../../db/generated/client.ts";
import type { Pricing } from "./generation.pricing.ts";
import { measuredGpuCosts } from "./generation.queries.ts";
import { withTemplateNames } from "./generation.template-names.ts";
import type { GenerationDeps, TaskInput } from "./generation.task.ts";

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;

/** What GPU time each finished generation took, and what that costs beside what it sold for (issue 34, decision 239). */
export function createGpuCosts({ db, templates }: GenerationDeps, pricing: Pricing) {
  return {
    /** Records the GPU seconds of the attempt that produced the task's result; recording one attempt again changes nothing. */
    async recordGpuRun(task: GenerationTask, gpu: { workflow: string; seconds: number }): Promise<void> {
      const input = task.input as unknown as TaskInput;
      const video = !(IMAGE_MODES as readonly string[]).includes(task.mode);
      await db.gpuRun.createMany({
        data: {
          taskId: task.id,
          attempt: task.attempts,
          templateId: task.templateId,
          engine: task.engine,
          workflow: gpu.workflow,
          resolution: video ? task.resolution : null,
          units: pricing.units({ video, durationSec: task.durationSec ?? 0, count: input.count ?? 1 }),
          gpuSeconds: gpu.seconds,
        },
        skipDuplicates: true,
      });
    },

    /** Per template, workflow and resolution: runs, GPU seconds and cost per unit in credits, and the price per unit charged. */
    async gpuCosts() {
      const rows = (await measuredGpuCosts.rows(db, {})).map((r) => ({
        templateId: r.template_id,
        workflow: r.workflow,
        resolution: r.resolution,
        runs: r.runs,
        gpuSecondsPerUnit: round(r.gpu_seconds_per_unit, 1),
        costPerUnit: round(pricing.creditsForGpuSeconds(r.gpu_seconds_per_unit), 2),
        pricePerUnit: round(r.price_per_unit, 2),
      }));
      return withTemplateNames(templates, rows);
    },
  };
}
