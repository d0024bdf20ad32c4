import { type PromptSeen, promptSeen } from "./comfyui.progress.ts";
import type { ComfyServer } from "./comfyui.server.ts";
import type { Logger } from "pino";
import type { EngineJob, LoraLinks } from "./engine.ts";
import { settlement, type TriedJob } from "./job-book.ts";
import { uuidFromKey } from "./outputs.ts";
import type { Workflow } from "./workflows.ts";

/** What the ComfyUI pool is made with (registry.ts reads them from the settings). */
export interface ComfyOptions {
  urls: string[];
  workflows: Workflow[];
  /** COMFYUI_MODELS: slot -> file. */
  models: Record<string, string>;
  healthMs: number;
  workflowCheckMs: number;
  maxTries: number;
  log: Logger;
  loraLinks?: LoraLinks;
  /**
   * Prompts a server holds at once, ours and others' (COMFYUI_PROMPTS_PER_SERVER): by default one running and one
   * waiting behind it, so it never idles between jobs; the rest wait in our queue, where a cancel costs nothing.
   */
  slotsPerServer?: number;
  /** A socket quiet this long while prompts of ours are on its server is re-opened (default 30 s). */
  socketQuietMs?: number;
}

/** A job of the ComfyUI pool and where it stands. */
export interface ComfyJob extends TriedJob {
  wf: Workflow;
  tried: Set<string>;
  /** Servers that raised a node or validation error for this job: it is not sent there again. */
  refused: Set<string>;
  /** Prompts sent so far, tries given back included: each names its own prompt id. */
  sent: number;
  server?: ComfyServer<ComfyJob>;
  promptId?: string;
  /** POST /prompt answered 200: the server holds it (since postedAt). */
  posted: boolean;
  postedAt: number;
  /** The prompt's last message came before POST /prompt's answer did. */
  ended: boolean;
  /** What the socket said of this try's prompt, for its percentage. */
  seen: PromptSeen;
  finishing: boolean;
}

export function newJob(job: EngineJob, wf: Workflow): ComfyJob {
  return {
    job,
    wf,
    tries: 0,
    tried: new Set(),
    refused: new Set(),
    sent: 0,
    posted: false,
    postedAt: 0,
    ended: false,
    state: "waiting",
    percent: 0,
    seen: promptSeen(),
    finishing: false,
    errors: [],
    ...settlement(),
  };
}

/** Resets the job for a new try on `s`; answers its prompt id (the same key and count of prompts sent always name the same prompt). */
export function startTry(job: ComfyJob, s: ComfyServer<ComfyJob>): string {
  job.tries++;
  job.sent++;
  job.tried.add(s.url);
  job.server = s;
  job.posted = false;
  job.ended = false;
  job.finishing = false;
  job.state = "running";
  job.seen = promptSeen();
  job.promptId = uuidFromKey(`${job.job.key}#${job.sent}`);
  return job.promptId;
}

export const offers = (s: ComfyServer<unknown>, wf: Workflow) => s.offered.get(wf.name)?.offered === true;

/**
 * Whether the server may still run the job: it never refused it, and offers its workflow by its last check (also while
 * down: it may come back) or was never checked.
 */
export const couldRun = (s: ComfyServer<unknown>, job: ComfyJob) =>
  !job.refused.has(s.url) && (!job.job.lora || s.characterModels !== false) && (offers(s, job.wf) || (s.health !== "healthy" && !s.offered.has(job.wf.name)));

/** Why no server can run the job's workflow, server by server. */
export const whyNowhere = (servers: ComfyServer<unknown>[], job: ComfyJob) =>
  `no server can run workflow ${job.wf.name} (${servers
    .map(
      (s) =>
        `${s.url} ${job.job.lora && s.characterModels === false ? "lacks Reverie's LoRA node (gpu/comfyui-reverie)" : (s.offered.get(job.wf.name)?.reason ?? (job.refused.has(s.url) ? "refused it" : s.health))}`,
    )
    .join("; ")})`;

/** Where a job stands, for the reason a time-out records. */
export const whereIs = (j: ComfyJob) =>
  j.state === "waiting" || !j.server
    ? `while waiting for a server that can run workflow ${j.wf.name}`
    : `while running workflow ${j.wf.name} on ${j.server.url}${j.posted ? "" : " (not yet queued there)"}`;
