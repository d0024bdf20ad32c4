import { z } from "zod";
import { ENGINE_KINDS, MODEL_FOLDERS, SERVER_HEALTH, WORKFLOW_TIERS } from "../../contract/engines.ts";
import { GENERATION_MODES } from "../../contract/generation.ts";
import { templateNameFields } from "./generation.template-names.ts";

/** What the engines answer of themselves: their status, the GPU servers' checks and measured GPU cost (the console's Engines page). */

/** get /api/Generation/engineStatus */
export const engineStatusAnswer = z.object({
  engine: z.enum(ENGINE_KINDS),
  label: z.string(),
  available: z.boolean(),
  ai: z.boolean(),
  message: z.string(),
  fix: z.string().optional(),
  modes: z.array(z.enum(GENERATION_MODES)),
  servers: z
    .array(
      z.object({
        url: z.string(),
        health: z.enum(SERVER_HEALTH),
        queue: z.number(),
        inFlight: z.number(),
        workflows: z.array(
          z.object({
            name: z.string(),
            offered: z.boolean(),
            reason: z.string().optional(),
          }),
        ),
        lastError: z.string().optional(),
        /** Reverie's LoRA node is installed there (decision 330). */
        characterModels: z.boolean().optional(),
        /** Its RAM and GPU memory in bytes by its last /system_stats: ComfyUI's grows over many runs (README, recycling). */
        memory: z
          .object({
            ramTotal: z.number(),
            ramFree: z.number(),
            gpus: z.array(z.object({ name: z.string(), vramTotal: z.number(), vramFree: z.number() })),
          })
          .optional(),
        checkedAt: z.string().optional(),
      }),
    )
    .optional(),
  /** false: no healthy server can load a person's character model; such requests are refused before any charge */
  characterModels: z.boolean().optional(),
  waiting: z.number().optional(),
  inFlight: z.number().optional(),
  lastErrors: z
    .array(
      z.object({
        at: z.string(),
        message: z.string(),
      }),
    )
    .optional(),
});

/** A model file and where to get it; `url` null: a file of the operator's choosing that the manifest does not know. */
const modelFileAnswer = {
  file: z.string(),
  folder: z.enum(MODEL_FOLDERS),
  url: z.string().nullable(),
  size: z.number().nullable(),
  sha256: z.string().nullable(),
};

/** get /admin/api/engines/check: each ComfyUI server against the model manifest (what `npm run gpu:check` prints). */
export const gpuCheckAnswer = z.array(
  z.object({
    url: z.string(),
    reachable: z.boolean(),
    error: z.string().optional(),
    comfyuiVersion: z.string().optional(),
    gpus: z.array(z.object({ name: z.string(), memoryGB: z.number() })),
    /** Reverie's LoRA node is installed: the server can run a person's character model (decision 330). */
    characterModels: z.boolean().optional(),
    workflows: z.array(
      z.object({
        name: z.string(),
        title: z.string(),
        offered: z.boolean(),
        reason: z.string().optional(),
        gpuMemoryGB: z.number(),
        fitsMemory: z.boolean().optional(),
        missingNodes: z.array(z.string()).optional(),
        nodesAdvice: z.object({ update: z.string().optional(), packages: z.array(z.string()), unloaded: z.array(z.string()) }).optional(),
        missingFiles: z.array(z.object({ slot: z.string(), ...modelFileAnswer })).optional(),
      }),
    ),
    /** Every missing file once per server, with the workflows that load it and the total to fetch. */
    downloads: z.array(z.object({ ...modelFileAnswer, workflows: z.array(z.string()) })),
    downloadBytes: z.number(),
    downloadsUnsized: z.number(),
  }),
);

/** get /admin/api/engines/costs: measured GPU cost beside price, per template, workflow and resolution (issue 34). */
export const gpuCostsAnswer = z.array(
  z.object({
    templateId: z.number().nullable(),
    ...templateNameFields,
    workflow: z.string(),
    tier: z.enum(WORKFLOW_TIERS).nullable(),
    resolution: z.string().nullable(),
    runs: z.number(),
    gpuSecondsPerUnit: z.number(),
    costPerUnit: z.number(),
    pricePerUnit: z.number(),
    /** The measured GPU cost per unit exceeds the price charged for it. */
    loss: z.boolean(),
  }),
);

/** get /admin/api/engines */
export const enginesAnswer = z.object({
  queue: z.array(
    z.object({
      engine: z.string(),
      status: z.string(),
      count: z.number(),
    }),
  ),
  renders: z.array(
    z.object({
      templateId: z.number().nullable(),
      ...templateNameFields,
      engine: z.string(),
      renders: z.number(),
      avgSeconds: z.number(),
    }),
  ),
  default: z.enum(ENGINE_KINDS),
  engines: z.array(engineStatusAnswer),
  workflows: z.array(
    z.object({
      name: z.string(),
      title: z.string(),
      tier: z.enum(WORKFLOW_TIERS),
      modes: z.array(z.enum(GENERATION_MODES)),
    }),
  ),
});
