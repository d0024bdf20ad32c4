import type { AspectRatio, CameraMove, EngineKind, FailedInput, ServerHealth, WorkflowTier } from "../../../contract/engines.ts";
import type { GenerationMode, Resolution } from "../../../contract/generation.ts";

export type { Resolution };

/** A checked LoRA weights file of the user's own character model (issue 14): its trigger word and weight. */
export interface EngineLora {
  /** Its key in our media storage, for engines that read storage. */
  path: string;
  /**
   * The SHA-256 of the .safetensors file: a GPU engine names the file by it, with a link signed for that server,
   * and the server's cache fetches and checks it (decision 330).
   */
  sha256: string;
  /** Must appear in the prompt to call the likeness up. */
  triggerWord: string;
  /** 0-1 (SPEC.md §5 strength range). */
  strength: number;
  baseModel: string | null;
}

/** Signs and checks the links a GPU server fetches a character model's weights by (lora-links.ts, decision 330). */
export interface LoraLinks {
  /** A link `server` may fetch the weights of `sha256` by, until it expires. */
  link(sha256: string, server: string): string;
  /** True when `sig` signs this file for this server and `expires` (unix seconds) has not passed. */
  verify(sha256: string, server: string, expires: number, sig: string, now?: number): boolean;
}

/** One unit of work handed to an engine. Media inputs are readable local files. */
export interface EngineJob {
  mode: GenerationMode;
  /** Where the engine writes its outputs (the worker owns and removes it). */
  workDir: string;
  image?: string;
  /**
   * A character's other pictures besides `image` (issue 50, decision 385): a workflow with `references` slots reads
   * them all; any other reads `image` alone.
   */
  references?: string[];
  /** The last frame a transition moves to (issue 33); only a workflow that needs one runs it. */
  endImage?: string;
  video?: string;
  audio?: string;
  prompt?: string;
  negativePrompt?: string;
  /** The template's engine parameters (motion, look, style...). */
  params: Record<string, unknown>;
  resolution: Resolution;
  aspect?: AspectRatio;
  durationSec: number;
  /** Images to make (batch modes). */
  count: number;
  /** Makes renders reproducible; shown on the result so a person can re-run with the same settings. */
  seed: number;
  /** How far video-to-video and image-to-image may move from the source, 0..1 (SPEC §5). */
  strength?: number;
  /** A camera move (issue 33); only a workflow that needs one runs it. */
  camera?: CameraMove;
  /** A 1080p follow-up (decision 307): only an upscale workflow runs it, from `video` or `image`, the finished result. */
  followUp?: "upscale";
  /**
   * An extension (decision 307): the finished clip this job continues from its last frame (`image`); the engine's
   * output is joined after it into one file, after the watermark step (decision 316).
   */
  continues?: string;
  /** The workflow the template chose (GPU engines); unset = the engine's default for the mode. */
  workflow?: string;
  /** Full or few-step sampling (issue 45); unset = full. Only a workflow of this tier runs the job (follow-ups aside). */
  tier?: WorkflowTier;
  lora?: EngineLora;
  /**
   * The identity of this run of the task (task id and run number). An engine derives its own job id from it, so
   * submitting the same key again attaches to the job already queued instead of queueing it twice.
   */
  key: string;
  /** Told each time the engine sends the job to a back end: which workflow on which server (the console's task view). */
  onTry?(t: EngineTry): void;
}

/** One try of a job on a GPU back end. */
export interface EngineTry {
  workflow: string;
  server: string;
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
  /**
   * An extension's clip (the job's `continues`): `main` is then the continuation alone, its size and length the
   * continuation's, joined after this clip by the watermark step once it has marked the new part or not (decision 316).
   */
  continues?: string;
  /** The workflow a GPU engine ran and the seconds it held the GPU (issue 34: measured cost per workflow). */
  gpu?: { workflow: string; seconds: number };
}

export interface EngineProgress {
  /** 0..100 */
  percent: number;
  state: "running" | "done" | "failed" | "cancelled";
  error?: string;
}

/** A ComfyUI server's RAM and each device's memory, free and in all, in bytes (its /system_stats). */
export interface ServerMemory {
  ramTotal: number;
  ramFree: number;
  gpus: { name: string; vramTotal: number; vramFree: number }[];
}

/** One GPU server (ComfyUI) or endpoint (serverless) as the console shows it. */
export interface EngineServerStatus {
  url: string;
  health: ServerHealth;
  /** Prompts running plus waiting there, by its own count. */
  queue: number;
  /** Our jobs on it now. */
  inFlight: number;
  /** Workflows it can run, and why the others cannot. */
  workflows: { name: string; offered: boolean; reason?: string }[];
  /** Whether it can run a job with a person's character model (Reverie's LoRA node installed, decision 330); unset: not known. */
  characterModels?: boolean;
  /** Its memory by its last /system_stats, in bytes: ComfyUI's grows over many runs, so operators recycle it (README). */
  memory?: ServerMemory;
  lastError?: string;
  checkedAt?: string;
}

export interface EngineStatus {
  engine: EngineKind;
  /** How results are labelled in the product ("local draft" for the CPU renderer). */
  label: string;
  available: boolean;
  /** True when this is a real AI back end rather than the local draft renderer. */
  ai: boolean;
  /** For people: what works, or why it does not. */
  message: string;
  /** For the operator (log and console): what to change when it is not available. */
  fix?: string;
  modes: GenerationMode[];
  /** The workflows some healthy server can run now (GPU engines); a submit pinned to another is refused before any charge. */
  workflows?: string[];
  /** False where no healthy server can load a person's character model (Reverie's LoRA node, decision 330). */
  characterModels?: boolean;
  servers?: EngineServerStatus[];
  /** Jobs of ours waiting for a free server, and running. */
  waiting?: number;
  inFlight?: number;
  lastErrors?: { at: string; message: string }[];
}

/**
 * The seam between the worker and whatever renders: the local CPU renderer, a ComfyUI pool, a serverless endpoint.
 * `submit` starts a job and returns the engine's id for it; `result` settles when the job ends.
 */
export interface GenerationEngine {
  readonly name: EngineKind;
  readonly label: string;
  status(): Promise<EngineStatus>;
  submit(job: EngineJob): Promise<string>;
  progress(jobId: string): Promise<EngineProgress>;
  result(jobId: string): Promise<EngineResult>;
  /** Stops the job; it fails with `reason` (a time-out says so) and what its tries met, else with "cancelled". */
  cancel(jobId: string, reason?: string): Promise<void>;
  /** Releases timers and sockets. */
  close?(): Promise<void>;
}

export class EngineError extends Error {}

/**
 * No back end can run the job now (its workflow is offered nowhere, or every server offering it refused it): a retry
 * would meet the same refusal, so the task fails at once with this reason instead of waiting out its time-outs.
 */
export class UnrunnableError extends EngineError {}

/**
 * A failure caused by the request's own inputs (issue 44 item 3, decision 335): the same request fails on every server,
 * so it ends now, refunded, telling the person which input; the workflow and the server stay offered to everyone else.
 */
export class InputError extends UnrunnableError {
  constructor(
    message: string,
    readonly input: FailedInput,
  ) {
    super(message);
  }
}
