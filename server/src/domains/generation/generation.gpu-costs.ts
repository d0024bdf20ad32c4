import { IMAGE_MODES } from "../../contract/generation.ts";
import type { GenerationTask } from "../../db/generated/client.ts";
import type { Pricing } from "./generation.pricing.ts";
import { measuredGpuCosts } from "./generation.gpu-costs.queries.ts";
import { withTemplateNames } from "./generation.template-names.ts";
import type { GenerationDeps, TaskInput } from "./generation.task.ts";

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;

/** What GPU time each finished generation took, and what that costs beside what it sold for (issue 34, decision 239). */
export function createGpuCosts({ db, templates, engines }: GenerationDeps, pricing: Pricing) {
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
    /**
     * Per template, workflow (with its tier) and resolution: runs, GPU seconds and cost per unit in credits, the price
     * per unit charged, and `loss` where the measured cost exceeds that price (flagged on the dashboard, issue 45).
     */
    async gpuCosts() {
      const tiers = new Map(engines.workflows.map((w) => [w.name, w.tier]));
      const rows = (await measuredGpuCosts.rows(db, {})).map((r) => {
        const costPerUnit = pricing.creditsForGpuSeconds(r.gpu_seconds_per_unit);
        return {
          templateId: r.template_id,
          workflow: r.workflow,
          // a workflow no longer shipped keeps its measurements; its tier is then unknown
          tier: tiers.get(r.workflow) ?? null,
          resolution: r.resolution,
          runs: r.runs,
          gpuSecondsPerUnit: round(r.gpu_seconds_per_unit, 1),
          costPerUnit: round(costPerUnit, 2),
          pricePerUnit: round(r.price_per_unit, 2),
          loss: costPerUnit > r.price_per_unit,
        };
      });
      return withTemplateNames(templates, rows);
    },
  };
}
