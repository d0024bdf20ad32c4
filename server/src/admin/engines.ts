import type { ApiRouter } from "../http/api.ts";
import type { Engines } from "../domains/generation/engines/registry.ts";
import type { GenerationService } from "../domains/generation/generation.service.ts";
import { enginesAnswer, gpuCheckAnswer } from "../domains/generation/generation.schema.ts";

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
        "Each ComfyUI server checked now against the workflows' model manifest: per workflow, runnable, or the nodes and model files it lacks with where to get each, and its GPU memory need (what `npm run gpu:check` prints)",
      tags: ["console"],
      auth: "staff",
      can: ["read", "Template"],
      response: { kind: "plain", schema: gpuCheckAnswer, description: "One report per configured ComfyUI server" },
    },
    () => engines.gpuCheck(),
  );
}
