import type { Logger } from "pino";
import type { Config } from "../../../config.ts";
import { createComfyEngine } from "./comfyui.engine.ts";
import { loraLinksFor } from "./lora-links.ts";
import { createServerlessEngine } from "./serverless.engine.ts";
import type { Workflow } from "./workflows.ts";

/** The GPU engines the settings configure: the ComfyUI pool with COMFYUI_URLS, the serverless endpoint with SERVERLESS_URL. */
export function createGpuEngines(config: Config, workflows: Workflow[], log: Logger) {
  const loraLinks = config.COMFYUI_URLS.length || config.SERVERLESS_URL ? loraLinksFor(config) : undefined;
  const comfy = config.COMFYUI_URLS.length
    ? createComfyEngine({
        urls: config.COMFYUI_URLS,
        workflows,
        models: config.COMFYUI_MODELS,
        healthMs: config.COMFYUI_HEALTH_SECONDS * 1000,
        workflowCheckMs: config.COMFYUI_WORKFLOW_CHECK_SECONDS * 1000,
        maxTries: config.COMFYUI_MAX_TRIES,
        slotsPerServer: config.COMFYUI_PROMPTS_PER_SERVER,
        loraLinks,
        log,
      })
    : undefined;
  const serverless = config.SERVERLESS_URL
    ? createServerlessEngine({
        url: config.SERVERLESS_URL,
        apiKey: config.SERVERLESS_API_KEY,
        workflows,
        models: config.COMFYUI_MODELS,
        pollMs: config.SERVERLESS_POLL_SECONDS * 1000,
        maxTries: config.COMFYUI_MAX_TRIES,
        loraLinks,
        log,
      })
    : undefined;
  return { comfy, serverless };
}
