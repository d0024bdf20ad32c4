import type { GenerationMode } from "../../../db/generated/enums.ts";

import type { Resolution } from "../../../contract/generation.ts";

export type { Resolution };

/** One unit of work handed to an engine. Media inputs are readable local files. */
export interface EngineJob {
  mode: GenerationMode;
  /** Where the engine writes its outputs (the worker owns and removes it). */
  workDir: string;
  image?: string;
  video?: string;
  audio?: string;
  prompt?: string;
  /** The template's engine parameters (motion, look, style...). */
  params: Record<string, unknown>;
  resolution: Resolution;
  durationSec: number;
  /** Images to make (batch modes). */
  count: number;
  /** Makes renders reproducible; the task id, normally. */
  seed: string;
  /** A trained character model to apply (issue 14); engines that cannot apply one leave it and say so (`appliesLora`). */
  lora?: EngineLora;
}

/** A checked LoRA weights file of the user's own character model. */
export interface EngineLora {
  /** Signed URL of the .safetensors file, for servers that fetch it, */
  url: string;
  /** and its key in our media storage, for engines that read storage. */
  path: string;
  /** Must appear in the prompt to call the likeness up. */
  triggerWord: string;
  /** 0-1 (SPEC.md §5 strength range). */
  strength: number;
  baseModel: string | null;
}

export interface EngineFile {
  path: string;
  mime: string;
}

export interface EngineResult {
  /** The main output: an MP4 for video modes, the first image for image modes. */
  main: EngineFile;
  /** Further images of a batch. */
  extra: EngineFile[];
  poster: EngineFile;
  width: number;
  height: number;
  durationSec?: number;
}

export interface EngineProgress {
  /** 0..100 */
  percent: number;
  state: "running" | "done" | "failed" | "cancelled";
  error?: string;
}

export interface EngineStatus {
  engine: string;
  /** How results are labelled in the product ("local draft" for the CPU renderer). */
  label: string;
  available: boolean;
  /** True when this is a real AI back end rather than the local draft renderer. */
  ai: boolean;
  message: string;
  modes: GenerationMode[];
}

/**
 * The seam between the worker and whatever renders: the local CPU renderer today, GPU back ends (ComfyUI...) later.
 * `submit` starts a job and returns the engine's id for it; `result` settles when the job ends.
 */
export interface GenerationEngine {
  readonly name: string;
  readonly label: string;
  /** Whether jobs' `lora` is applied; results of an engine that ignores it are labelled so. */
  readonly appliesLora?: boolean;
  status(): Promise<EngineStatus>;
  submit(job: EngineJob): Promise<string>;
  progress(jobId: string): Promise<EngineProgress>;
  result(jobId: string): Promise<EngineResult>;
  cancel(jobId: string): Promise<void>;
}

export class EngineError extends Error {}
