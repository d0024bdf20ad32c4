import type { RecordNotification } from "../notifications/notifications.service.ts";
import type { Logger } from "pino";
import type { JobMetrics } from "../../metrics/metrics.ts";
import type { Config } from "../../config.ts";
import type { AspectRatio, CameraMove, WorkflowTier } from "../../contract/engines.ts";
import { VIDEO_MODES, type Corner, type GenerationMode, type TaskStatus } from "../../contract/generation.ts";
import type { Db } from "../../db/client.ts";
import type { FaceAnalyser } from "../../faces/faces.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import type { BlocklistService } from "../screening/blocklist.service.ts";
import type { TemplatesService } from "../templates/templates.service.ts";
import type { UploadsService } from "../uploads/uploads.service.ts";
import type { EngineLora } from "./engines/engine.ts";
import type { Engines } from "./engines/registry.ts";
import type { GenerationQueue } from "./queue.ts";

/** SPEC.md §4 wording of each task status, as the API shows it. */
export const STATUS_TEXT: Record<TaskStatus, string> = {
  queued: "to be generated",
  running: "generating",
  succeeded: "generated successfully",
  failed: "generation failed",
  expired: "expired",
};

/** What the worker needs to render, resolved (and ownership-checked) at submit time. */
export interface TaskInput {
  imageKey?: string;
  /** A character's reference pictures besides `imageKey` (issue 50, decision 385), for workflows that read several. */
  referenceKeys?: string[];
  /** A transition's last frame (issue 33). */
  endImageKey?: string;
  videoKey?: string;
  audioKey?: string;
  prompt?: string;
  negativePrompt?: string;
  count?: number;
  aspect?: AspectRatio;
  /** Shown on the result, so the same settings can be run again. */
  seed?: number;
  strength?: number;
  /** The camera move asked for, or the template's own (issue 33). */
  camera?: CameraMove;
  /** The template's workflow on a GPU engine (an extension's: the clip's own, where it takes a photo, decision 307). */
  workflow?: string;
  /** Best or fast (issue 45): only a workflow of this tier runs it; unset = best (full). An extension keeps its clip's. */
  tier?: WorkflowTier;
  /** An extension's own seconds (decision 307); the task's duration is the joined clip's. */
  extendSec?: number;
  params: Record<string, unknown>;
  sources: { image_id?: number; end_image_id?: number; video_id?: number; audio_id?: number; role_id?: number };
  /** The caller's trained character model (role_id), checked usable at submit and again when the job runs. */
  lora?: EngineLora & { modelId: number };
}

/** The training domain's answer to "may this user generate with this model" (owner, trained, not taken down). */
export interface CharacterModels {
  loraFor(userId: number, modelId: number, strength?: number): Promise<EngineLora & { modelId: number }>;
  /** The model's cover photo upload, the reference picture of role videos. */
  coverUploadId(userId: number, modelId: number): Promise<number>;
}

/** How results of an engine that ignores character models are labelled. */
export const LORA_NOT_APPLIED = "character model not applied";

export interface TaskOutputs {
  mainKey: string;
  posterKey: string;
  extraKeys: string[];
  width: number;
  height: number;
  /**
   * The corner of the watermark the files carry, null for none (docs/decisions/316): a follow-up's mark goes where its
   * source's is. Absent on results stored before it was recorded.
   */
  mark?: Corner | null;
}

/** The caller's balance as read with their session at the start of the request (docs/decisions/074). */
export interface KnownBalance {
  points: number;
  free_generations: number;
}

/** What the generation domain's use cases stand on (createGenerationService's deps). */
export interface GenerationDeps {
  db: Db;
  config: Config;
  credits: CreditsService;
  storage: MediaStorage;
  templates: TemplatesService;
  uploads: UploadsService;
  queue: GenerationQueue;
  engines: Engines;
  models: CharacterModels;
  /** The blocklist of taken-down media (issue 19): a matching output fails the task. */
  blocklist: Pick<BlocklistService, "blockedOutput">;
  /** Counts a submit against the caller's hourly limit (429 when over); refusals for want of credits are not counted. */
  countSubmit: (userId: number) => Promise<void>;
  /** How attempts ended, for the operations figures (server/src/metrics). */
  jobs: JobMetrics;
  /** The face model: the watermark keeps clear of faces (docs/decisions/296). */
  faces: Pick<FaceAnalyser, "detect">;
  log: Logger;
  /** Tells an item's owner of a like or a remix, in the like's or the remix's transaction (docs/decisions/312). */
  notify: RecordNotification;
}

/** The ledger key of a task's charge: the submit charges under it, the watermark looks it up (docs/decisions/296). */
export const taskChargeKey = (taskId: number) => `task:${taskId}:charge`;

export const isVideo = (mode: GenerationMode) => (VIDEO_MODES as readonly GenerationMode[]).includes(mode);

/** A result not yet expired: one that never expires (kept for a creator page), or whose time has not come. */
export const unexpired = () => ({ OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] });

/** When a result finished (or taken off a creator page) now expires. */
export const resultExpiry = (config: Config) => new Date(Date.now() + config.GENERATION_RESULT_TTL_HOURS * 3600_000);
