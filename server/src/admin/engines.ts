import type { ApiRouter } from "../http/api.ts";
import type { Engines } from "../domains/generation/engines/registry.ts";
import type { GenerationService } from "../domains/generation/generation.service.ts";
import { enginesAnswer, gpuCheckAnswer, gpuCostsAnswer } from "../domains/generation/generation.engines.schema.ts";

/** The console's engine status: each engine's servers, health, queue, jobs in flight and last errors, with render figures. */
export function enginesRoutes(api: ApiRouter, engines: Engines, generation: GenerationService) {
  api.get(
    "/admin/api/engines",
    {
      summary:
        "Every configured engine's status (servers, health, queue, jobs in flight, workflows offered and why not, last errors), the workflow files, tasks waiting and running per engine, and the average render time per template",
      tags: ["console"],
      auth: "staff",
      can: ["read", "Template"],
      response: { kind: "plain", schema: enginesAnswer, description: "The engines' status and figures" },
    },
    async () => {
      const [statuses, figures] = await Promise.all([engines.statuses(), generation.engineFigures()]);
      return { default: engines.defaultName, engines: statuses, workflows: engines.workflows, ...figures };
    },
  );

  api.get(
    "/admin/api/engines/check",
    {
      summary:
        "Each ComfyUI server checked now against the workflows' model manifest: per workflow, runnable, or the nodes and model files it lacks with where to get each, and its GPU memory need (what `npm run gpu:check` prints); every instance's engine then offers what this check found (decision 375)",
      tags: ["console"],
      auth: "staff",
      can: ["read", "Template"],
      response: { kind: "plain", schema: gpuCheckAnswer, description: "One report per configured ComfyUI server" },
    },
    () => engines.gpuCheck(),
  );
  api.get(
    "/admin/api/engines/costs",
    {
      summary:
        "Measured GPU cost beside price over the last 30 days, per template, workflow and resolution: runs, GPU seconds and cost in credits per unit (a started price block of video, or an image), and the credits charged per unit",
      tags: ["console"],
      auth: "staff",
      can: ["read", "Template"],
      response: { kind: "plain", schema: gpuCostsAnswer, description: "Measured cost and price per template, workflow and resolution" },
    },
    () => generation.gpuCosts(),
  );
}
