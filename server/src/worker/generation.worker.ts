import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type PgBoss from "pg-boss";
import type { Logger } from "pino";
import type { Config } from "../config.ts";
import type { FollowUp } from "../contract/generation.ts";
import type { GenerationTask } from "../db/generated/client.ts";
import {
  type EngineJob,
  type EngineResult,
  type EngineTry,
  type GenerationEngine,
  InputError,
  type Resolution,
  UnrunnableError,
} from "../domains/generation/engines/engine.ts";
import { followUpJob } from "../domains/generation/engines/follow-ups.ts";
import type { MarkedResult } from "../domains/generation/generation.watermark.ts";
import type { Engines } from "../domains/generation/engines/registry.ts";
import type { GenerationService, TaskInput, TaskOutputs } from "../domains/generation/generation.service.ts";
import type { RateLimiter } from "../http/rate-limit.ts";
import { logConnectionEnded, serverGone, stopHasBegun } from "../logger.ts";
import { mediaKey, type MediaStorage } from "../storage/storage.ts";
import type { TrainingService } from "../domains/training/training.service.ts";
import type { ProvenanceService } from "../domains/provenance/provenance.service.ts";
import { listenForJobs } from "../domains/generation/generation.queries.ts";
import { createGenerationQueue, GENERATION_DEAD_QUEUE, GENERATION_QUEUE, type GenerationJobData } from "../domains/generation/queue.ts";
import { startTrainingPoller } from "./training.worker.ts";

export interface WorkerDeps {
  databaseUrl: string;
  config: Config;
  log: Logger;
  generation: GenerationService;
  storage: MediaStorage;
  engines: Engines;
  /** Its old counters are pruned by the worker's housekeeping. */
  limiter: RateLimiter;
  /** Character-model trainings are polled by the same worker. */
  training: TrainingService;
  /** Signs and fingerprints every output before it is stored (EU AI Act Art. 50(2), docs/decisions/297). */
  provenance: ProvenanceService;
}

const PROGRESS_POLL_MS = 300;
const HOUSEKEEPING_MS = 60_000;

const extOf = (mime: string) => (mime === "video/mp4" ? "mp4" : mime === "image/png" ? "png" : "jpg");

/** Waits for the engine's result, relaying its percentage to the task as it goes. */
async function followProgress(engine: GenerationEngine, jobId: string, report: (percent: number) => Promise<void>): Promise<EngineResult> {
  const done = engine.result(jobId);
  let settled = false;
  void done.then(
    () => (settled = true),
    () => (settled = true),
  );
  while (!settled) {
    await Promise.race([done.catch(() => undefined), new Promise((r) => setTimeout(r, PROGRESS_POLL_MS))]);
    if (settled) break;
    const p = await engine.progress(jobId).catch(() => null);
    if (p) await report(p.percent);
  }
  return done;
}

/**
 * Heartbeats (docs/decisions/076) of a running attempt. `lose` is called when the task is no longer this attempt's
 * (recovered elsewhere, failed by a ban), or when no heartbeat has landed for long enough that another worker may soon
 * take it over: the render stops GENERATION_HEARTBEAT_SECONDS before anyone else may start, so the two never overlap.
 * Answers the function that stops the heartbeats.
 */
function beatWhileRunning(d: Pick<WorkerDeps, "generation" | "config" | "log">, task: GenerationTask, lose: () => void): () => void {
  const { config } = d;
  const fenceMs = (config.GENERATION_STALE_SECONDS - config.GENERATION_HEARTBEAT_SECONDS) * 1000;
  let lastBeat = Date.now();
  let beating = false;
  const beat = setInterval(() => {
    if (Date.now() - lastBeat > fenceMs) return lose();
    if (beating) return;
    beating = true;
    const sentAt = Date.now();
    d.generation
      .heartbeat(task)
      .then((mine) => (mine ? (lastBeat = sentAt) : lose()))
      .catch((err: unknown) => d.log.warn({ taskId: task.id, err }, "heartbeat failed"))
      .finally(() => (beating = false));
  }, config.GENERATION_HEARTBEAT_SECONDS * 1000);
  return () => clearInterval(beat);
}

/** The engine's job for this attempt of the task, its media inputs fetched into `workDir`. */
async function engineJobOf(storage: MediaStorage, task: GenerationTask, workDir: string): Promise<EngineJob> {
  const input = task.input as unknown as TaskInput;
  const local = (key?: string) => (key ? storage.toLocalFile(key, workDir) : Promise.resolve(undefined));
  const [image, endImage, video, audio] = await Promise.all([local(input.imageKey), local(input.endImageKey), local(input.videoKey), local(input.audioKey)]);
  const references = input.referenceKeys?.length ? await Promise.all(input.referenceKeys.map((k) => storage.toLocalFile(k, workDir))) : undefined;
  const job: EngineJob = {
    mode: task.mode,
    workDir,
    image,
    references,
    endImage,
    video,
    audio,
    prompt: input.prompt,
    negativePrompt: input.negativePrompt,
    params: input.params ?? {},
    resolution: (task.resolution ?? "480P") as Resolution,
    aspect: input.aspect,
    durationSec: task.durationSec ?? 5,
    count: input.count ?? 1,
    seed: input.seed ?? task.id,
    strength: input.strength,
    camera: input.camera,
    workflow: input.workflow,
    tier: input.tier,
    // the GPU engine signs the link to it for the server it picks (decision 330); a model removed since answers none
    lora: input.lora,
    // one engine job per attempt: beginAttempt lets only the task's current attempt run (docs/decisions/076)
    key: `task:${task.id}:attempt:${task.attempts}`,
  };
  // a follow-up of a finished result: an upscale, or an extension from the clip's last frame (decision 307)
  return task.followUp ? followUpJob(task.followUp as FollowUp, job, input.extendSec) : job;
}

/** The start of a task's work folder name: its renders' command lines name it, so `ps` tells which task each belongs to. */
export const taskWorkDirPrefix = (taskId: number) => `reverie-task-${taskId}-`;

/**
 * Runs one attempt of a task. Idempotent: a task that already ended is left alone, and a duplicate run that
 * finishes second discards its files. A failure on the last attempt fails and refunds the task; earlier ones retry.
 */
export function generationJobHandler(d: Omit<WorkerDeps, "databaseUrl" | "limiter">) {
  const { generation, storage, engines, log, config } = d;

  async function storeOutputs(task: GenerationTask, r: MarkedResult): Promise<TaskOutputs> {
    await d.provenance.markOutputs(r, task);
    const put = async (f: { path: string; mime: string }, folder: string) => {
      const key = mediaKey(task.userId, folder, extOf(f.mime));
      await storage.putFile(key, f.path, f.mime);
      return key;
    };
    const [mainKey, posterKey, ...extraKeys] = await Promise.all([put(r.main, "outputs"), put(r.poster, "posters"), ...r.extra.map((f) => put(f, "outputs"))]);
    return { mainKey, posterKey, extraKeys, width: r.width, height: r.height, mark: r.mark };
  }

  return async function runJob(job: PgBoss.JobWithMetadata<GenerationJobData>): Promise<void> {
    const { taskId, jobId } = job.data;
    const task = await generation.beginAttempt(taskId, jobId);
    if (!task) return;
    const engine: GenerationEngine = engines.require(task.engine);
    const lastAttempt = job.retryCount >= job.retryLimit;
    const workDir = await fs.mkdtemp(path.join(os.tmpdir(), taskWorkDirPrefix(taskId)));
    let engineJobId: string | undefined;
    // stop the render a little before pg-boss would expire the job, so the failure is ours to report, with its reason
    const limit = Math.max(1, config.GENERATION_TIMEOUT_SECONDS - 2);
    const timer = setTimeout(() => engineJobId && void engine.cancel(engineJobId, `timed out after ${limit} s`), limit * 1000);
    // the render stops itself when the task is no longer this attempt's (beatWhileRunning)
    let lost = false;
    const loseIt = () => {
      if (lost) return;
      lost = true;
      log.warn({ taskId, attempt: task.attempts }, "this attempt no longer owns its task; stopping the render");
      if (engineJobId) void engine.cancel(engineJobId);
    };
    const stopBeating = beatWhileRunning(d, task, loseIt);
    try {
      // the console's task view shows which workflow ran on which server; a lost record must not fail the render
      const onTry = (t: EngineTry) => void generation.noteTry(task, t).catch((err: unknown) => log.warn({ taskId, err }, "recording a try failed"));
      engineJobId = await engine.submit({ ...(await engineJobOf(storage, task, workDir)), onTry });
      if (lost) void engine.cancel(engineJobId);
      const result = await followProgress(engine, engineJobId, (p) => generation.reportProgress(task, p));
      const outputs = lost ? null : await storeOutputs(task, await generation.watermark(task, result));
      // recorded before the task shows succeeded, so whoever sees it done sees its GPU time; the GPU time of an attempt
      // that then loses the task was spent all the same, and a lost record must not fail the render
      if (outputs && result.gpu)
        await generation.recordGpuRun(task, result.gpu).catch((err: unknown) => log.warn({ taskId, err }, "recording GPU time failed"));
      if (outputs && !(await generation.complete(task, outputs))) {
        for (const key of [outputs.mainKey, outputs.posterKey, ...outputs.extraKeys]) await storage.delete(key).catch(() => undefined);
      }
    } catch (err) {
      // the task is someone else's now (or ended): nothing of this attempt may touch it, and its job is done
      if (lost) return;
      const message = err instanceof Error ? err.message : String(err);
      log.warn({ taskId, attempt: job.retryCount + 1, lastAttempt, err: message }, "generation attempt failed");
      // no back end can run it: another attempt would meet the same refusal, so it fails (and is refunded) now
      if (lastAttempt || err instanceof UnrunnableError) {
        await generation.fail(taskId, message, { attempts: task.attempts }, err instanceof InputError ? err.input : undefined);
        return;
      }
      await generation.retryLater(task, message);
      throw err;
    } finally {
      stopBeating();
      clearTimeout(timer);
      await fs.rm(workDir, { recursive: true, force: true });
    }
  };
}

/**
 * Consumes the generation queue: WORKER_CONCURRENCY jobs at a time, woken by NOTIFY when a task commits,
 * failing-and-refunding dead-lettered jobs (retries used up, or a worker that died past the time-out),
 * expiring old results and pruning old rate-limit counters.
 */
export async function startGenerationWorker(d: WorkerDeps): Promise<{ stop(): Promise<void> }> {
  const queue = createGenerationQueue({ url: d.databaseUrl, config: d.config, log: d.log, role: "worker" });
  const boss = await queue.ready();
  const run = generationJobHandler(d);
  const options = { includeMetadata: true as const, batchSize: 1, pollingIntervalSeconds: d.config.QUEUE_POLL_SECONDS };
  const workerIds: string[] = [];
  for (let i = 0; i < d.config.WORKER_CONCURRENCY; i++) {
    workerIds.push(await boss.work<GenerationJobData>(GENERATION_QUEUE, options, async ([job]) => run(job)));
  }
  workerIds.push(
    await boss.work<GenerationJobData>(GENERATION_DEAD_QUEUE, options, async ([job]) => {
      // only while that job still owns the task: a job superseded by a recovery changes nothing
      await d.generation.fail(job.data.taskId, "The generation did not finish in time or its worker stopped", { jobId: job.data.jobId ?? null });
    }),
  );

  const poller = await startTrainingPoller(boss, d.training, d.log, d.config.TRAINING_POLL_SECONDS);

  const listener = new pg.Client({ connectionString: d.databaseUrl, application_name: "reverie-worker-wakeup" });
  listener.on("notification", () => workerIds.forEach((id) => boss.notifyWorker(id)));
  listener.on("error", (err) =>
    serverGone(err) || stopHasBegun()
      ? logConnectionEnded(d.log, "worker wake-up listener", err)
      : d.log.warn({ err }, "worker wake-up listener lost its connection; falling back to polling"),
  );
  await listener.connect();
  // a connection of its own, outside any pool: the statement's text, run as it is
  await listener.query(listenForJobs.sql({}).text);

  const housekeeping = () => Promise.all([d.generation.expireResults(), d.limiter.prune()]).catch((err) => d.log.error({ err }, "worker housekeeping failed"));
  const sweep = setInterval(() => void housekeeping(), HOUSEKEEPING_MS);
  sweep.unref();
  void housekeeping();
  // tasks of workers that died: looked for as often as heartbeats are sent
  let recovering = false;
  const recover = setInterval(() => {
    if (recovering) return;
    recovering = true;
    d.generation
      .recoverStalled()
      .then((n) => n && d.log.warn({ recovered: n }, "tasks of a stopped worker queued again"))
      .catch((err) => d.log.error({ err }, "recovering stalled tasks failed"))
      .finally(() => (recovering = false));
  }, d.config.GENERATION_HEARTBEAT_SECONDS * 1000);
  recover.unref();
  // each configured engine is checked at start; one that cannot run is logged once with its fix
  const statuses = await d.engines.checkAll();
  d.log.info(
    { concurrency: d.config.WORKER_CONCURRENCY, engines: statuses.map((s) => `${s.engine}:${s.available ? "ok" : "unavailable"}`) },
    "generation worker started",
  );

  return {
    async stop() {
      clearInterval(sweep);
      clearInterval(recover);
      poller.stop();
      await listener.end().catch(() => undefined);
      await queue.stop();
    },
  };
}
