import fs from "node:fs/promises";
import path from "node:path";
import type { Logger } from "pino";
import { EngineError, type EngineResult, type EngineStatus, type GenerationEngine, type LoraLinks } from "./engine.ts";
import { createJobBook, createTryRecord, reasonOf, settlement, shownState, type TriedJob } from "./job-book.ts";
import { finishOutputs } from "./outputs.ts";
import { modesOf } from "./workflow-binding.ts";
import { chooseWorkflow } from "./workflow-choice.ts";
import { bindWorkflow, type Workflow } from "./workflows.ts";

/**
 * The `serverless` engine (decision 085): the same workflow files through a queue-based serverless GPU endpoint,
 * RunPod's API as its ComfyUI worker (runpod-workers/worker-comfyui) takes it: POST {url}/run with
 * `{input: {workflow, images: [{name, image: base64}]}}`, GET {url}/status/{id} until COMPLETED (outputs under
 * `output.images[]` as base64 or URLs), FAILED, CANCELLED or TIMED_OUT, POST {url}/cancel/{id}, GET {url}/health.
 * An operator can scale such an endpoint to zero; nothing of ours runs on the GPU side.
 */

export interface ServerlessOptions {
  url: string;
  apiKey?: string;
  workflows: Workflow[];
  models: Record<string, string>;
  /** Signs the link the endpoint's workers fetch a job's character model by (decision 330). */
  loraLinks?: LoraLinks;
  pollMs: number;
  maxTries: number;
  log: Logger;
}

type RemoteStatus = "IN_QUEUE" | "IN_PROGRESS" | "COMPLETED" | "FAILED" | "CANCELLED" | "TIMED_OUT";
interface StatusBody {
  id: string;
  status: RemoteStatus;
  output?: { images?: { filename: string; type: "base64" | "s3_url"; data: string }[]; errors?: string[] } | null;
  error?: string;
  executionTime?: number;
}

interface Job extends TriedJob {
  wf: Workflow;
  remoteId?: string;
  startedAt?: number;
}

const TIMEOUT_MS = 30_000;
/** Polls that may fail in a row (a network blip) before the try counts as failed. */
const POLL_ERRORS = 5;

/** The error a stopped job ends with: why it was stopped (a time-out says so), then why earlier tries failed. */
const stopped = (j: { stopReason?: string; errors: string[] }) => new EngineError([j.stopReason ?? "cancelled", ...j.errors].join(" | "));

export function createServerlessEngine(o: ServerlessOptions): GenerationEngine {
  const base = o.url.replace(/\/$/, "");
  const headers = { "Content-Type": "application/json", ...(o.apiKey ? { Authorization: `Bearer ${o.apiKey}` } : {}) };
  const jobs = createJobBook<Job>();
  const tries = createTryRecord(o);
  /** Seconds a job ran on the endpoint, recent ones: the progress estimate while it runs (the API reports no percentage). */
  const runTimes: number[] = [];
  let closed = false;

  const api = async <T>(method: "GET" | "POST", p: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${base}${p}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!res.ok) throw new EngineError(`${method} ${p.split("/").slice(0, 2).join("/")} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
    return (await res.json()) as T;
  };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  async function inputOf(j: Job) {
    const images: { name: string; image: string }[] = [];
    const add = async (file: string | undefined, name: string) => {
      if (!file) return undefined;
      images.push({ name, image: (await fs.readFile(file)).toString("base64") });
      return name;
    };
    const image = await add(j.job.image, `input${path.extname(j.job.image ?? "") || ".png"}`);
    // a transition's last frame under a name of its own beside the first
    const endImage = await add(j.job.endImage, `input-end${path.extname(j.job.endImage ?? "") || ".png"}`);
    const video = await add(j.job.video, `input${path.extname(j.job.video ?? "") || ".mp4"}`);
    // the worker uploads every entry as ComfyUI's /upload/image does, which takes any file: the audio a lip sync reads
    const audio = await add(j.wf.binding.inputs.audio && j.job.audio, `input-audio${path.extname(j.job.audio ?? "") || ".m4a"}`);
    // a character's reference pictures only where the workflow reads them (decision 385)
    const references: string[] = [];
    for (const [i, f] of (j.wf.binding.inputs.references ? (j.job.references ?? []) : []).entries())
      references.push((await add(f, `input-ref${i + 1}${path.extname(f) || ".png"}`))!);
    const { prompt } = await bindWorkflow(j.wf, j.job, {
      image,
      references,
      endImage,
      video,
      audio,
      models: o.models,
      prefix: "reverie/out",
      server: base,
      links: o.loraLinks,
    });
    return { workflow: prompt, images };
  }

  /** One try: queue the job, poll until it ends, bring its outputs home. */
  async function attempt(j: Job): Promise<EngineResult> {
    const run = await api<{ id: string }>("POST", "/run", { input: await inputOf(j) });
    j.remoteId = run.id;
    let failures = 0;
    for (;;) {
      if (closed || j.state === "cancelled") throw stopped(j);
      await sleep(o.pollMs);
      let s: StatusBody;
      try {
        s = await api<StatusBody>("GET", `/status/${run.id}`);
        failures = 0;
      } catch (err) {
        if (++failures >= POLL_ERRORS) throw err;
        continue;
      }
      if (s.status === "IN_QUEUE") j.percent = Math.max(j.percent, 2);
      if (s.status === "IN_PROGRESS") {
        j.startedAt ??= Date.now();
        const typical = runTimes.length ? runTimes.reduce((a, b) => a + b, 0) / runTimes.length : 60;
        j.percent = Math.max(j.percent, Math.min(90, Math.floor((90 * (Date.now() - j.startedAt)) / 1000 / typical)));
      }
      if (s.status === "FAILED" || s.status === "TIMED_OUT" || s.status === "CANCELLED")
        throw new EngineError(`${s.status.toLowerCase()}: ${s.error ?? s.output?.errors?.join("; ") ?? "no reason given"}`);
      if (s.status !== "COMPLETED") continue;
      if (s.executionTime) {
        runTimes.push(s.executionTime / 1000);
        if (runTimes.length > 20) runTimes.shift();
      }
      const files: string[] = [];
      for (const [i, img] of (s.output?.images ?? []).entries()) {
        const file = path.join(j.job.workDir, `out-${i}${path.extname(img.filename) || ".png"}`);
        const bytes =
          img.type === "base64"
            ? Buffer.from(img.data, "base64")
            : Buffer.from(await (await fetch(img.data, { signal: AbortSignal.timeout(300_000) })).arrayBuffer());
        await fs.writeFile(file, bytes);
        files.push(file);
      }
      const gpu = s.executionTime ? { workflow: j.wf.name, seconds: s.executionTime / 1000 } : undefined;
      return { ...(await finishOutputs(j.job, files, j.wf.binding.output.kind)), gpu };
    }
  }

  async function runJob(j: Job): Promise<EngineResult> {
    for (;;) {
      j.tries++;
      j.job.onTry?.({ workflow: j.wf.name, server: base });
      try {
        const r = await attempt(j);
        j.state = "done";
        j.percent = 100;
        return r;
      } catch (err) {
        const message = (err as Error).message;
        if (j.state === "cancelled") throw stopped(j);
        const failed = tries.failed(j, message, [{ key: j.job.key, tries: j.tries, err: message }, "serverless try failed"]);
        if (failed) throw failed;
      }
    }
  }

  return {
    name: "serverless",
    label: "AI",
    async status(): Promise<EngineStatus> {
      let health: { jobs?: { inQueue?: number; inProgress?: number }; workers?: Record<string, number> } | undefined;
      let reason = "";
      try {
        health = await api("GET", "/health");
      } catch (err) {
        reason = reasonOf(err);
      }
      const available = !!health && o.workflows.length > 0;
      return {
        engine: "serverless",
        label: "AI",
        available,
        ai: true,
        modes: available ? modesOf(o.workflows) : [],
        message: available ? "The serverless GPU endpoint is ready." : "The AI engine is temporarily unavailable. Please try again later.",
        fix: available ? undefined : `The serverless endpoint ${base} does not answer /health (${reason}). Check SERVERLESS_URL and SERVERLESS_API_KEY.`,
        servers: [
          {
            url: base,
            health: health ? "healthy" : "unreachable",
            queue: (health?.jobs?.inQueue ?? 0) + (health?.jobs?.inProgress ?? 0),
            inFlight: jobs.size,
            workflows: o.workflows.map((w) => ({ name: w.name, offered: true })),
            lastError: reason || undefined,
            checkedAt: new Date().toISOString(),
          },
        ],
        waiting: jobs.all().filter((j) => j.percent <= 2).length,
        inFlight: jobs.size,
        lastErrors: tries.recentErrors(),
      };
    },

    async submit(job) {
      if (jobs.get(job.key)) return job.key;
      const wf = chooseWorkflow(o.workflows, job, () => true);
      const j: Job = { job, wf, tries: 0, state: "running", percent: 0, errors: [], ...settlement() };
      jobs.add(job.key, j);
      runJob(j).then(j.resolve, j.reject);
      return job.key;
    },

    async progress(id) {
      const j = jobs.find(id);
      return { percent: j.percent, state: shownState(j), error: j.errors.at(-1) };
    },

    result: jobs.result,

    async cancel(id, reason) {
      const j = jobs.cancel(id, reason);
      if (j?.remoteId) await api("POST", `/cancel/${j.remoteId}`).catch(() => undefined);
    },

    async close() {
      closed = true;
    },
  };
}
