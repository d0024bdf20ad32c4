import type { Logger } from "pino";
import { watchHealth } from "./comfyui.health.ts";
import { EngineError, type EngineServerStatus, type EngineStatus, type GenerationEngine } from "./engine.ts";
import {
  comfyServer,
  download,
  failureOf,
  fixFor,
  historyOf,
  postPrompt,
  refusalOf,
  serverStatus,
  stopOnServer,
  upload,
  type ComfyServer,
} from "./comfyui.server.ts";
import { gpuSecondsOf } from "./gpu-time.ts";
import { followPrompt, openSocket, queueRemaining, type SocketMessage } from "./comfyui.socket.ts";
import { createJobBook, createTryRecord, isOver, settlement, shownState, type TriedJob } from "./job-book.ts";
import { finishOutputs, uuidFromKey } from "./outputs.ts";
import { bindWorkflow, chooseWorkflow, modesOf, type Workflow } from "./workflows.ts";

/**
 * The `comfyui` engine: a pool of ComfyUI servers (decision 081), following /work/shared/protocols/comfyui.md.
 * Each server is health-checked (/system_stats, /queue) and its workflows checked against /object_info; a job waits in
 * our queue until a healthy server offering its workflow has a free slot (least loaded first), is uploaded
 * (/upload/image), queued (POST /prompt with our own prompt_id and client_id), followed on the /ws socket and settled
 * from /history/{prompt_id}, which is the truth when the socket drops. A server that dies or forgets the prompt hands the
 * job to another, up to `maxTries` servers; cancel deletes it from the queue and interrupts it.
 */

export interface ComfyOptions {
  urls: string[];
  workflows: Workflow[];
  /** COMFYUI_MODELS: slot -> file. */
  models: Record<string, string>;
  healthMs: number;
  workflowCheckMs: number;
  maxTries: number;
  log: Logger;
  /** Prompts of ours a server holds at once: one running and one waiting behind it, so it never idles between jobs. */
  slotsPerServer?: number;
}

type Server = ComfyServer<Job>;

interface Job extends TriedJob {
  wf: Workflow;
  tried: Set<string>;
  server?: Server;
  promptId?: string;
  /** POST /prompt answered 200: the server holds it (since postedAt). */
  posted: boolean;
  postedAt: number;
  /** The prompt's last message came before POST /prompt's answer did. */
  ended: boolean;
  nodesDone: Set<string>;
  step: number;
  finishing: boolean;
}

export function createComfyEngine(o: ComfyOptions): GenerationEngine & { servers(): EngineServerStatus[] } {
  const slots = o.slotsPerServer ?? 2;
  const servers: Server[] = o.urls.map((url) => comfyServer<Job>(url));
  const jobs = createJobBook<Job>();
  const tries = createTryRecord(o);
  const byPrompt = new Map<string, Job>();
  const waiting: Job[] = [];
  let closed = false;

  function connect(s: Server) {
    if (!closed) openSocket(s, (m) => onMessage(s, m));
  }

  function onMessage(s: Server, m: SocketMessage) {
    if (m.type === "status") {
      const q = queueRemaining(m);
      if (typeof q === "number") s.queue = q;
      return;
    }
    const job = typeof m.data.prompt_id === "string" ? byPrompt.get(m.data.prompt_id) : undefined;
    if (!job || job.server !== s) return;
    // history holds the same record; settle reads it once the prompt's last message (executing null) comes
    if (m.type === "execution_error")
      tries.noteError(`${s.url}: ${String(m.data.node_type ?? "")} ${String(m.data.exception_message ?? "execution error").trim()}`);
    if (followPrompt(job, m, Object.keys(job.wf.graph).length)) void settle(job);
  }

  const healthy = (s: Server) => s.health === "healthy";
  const offers = (s: Server, wf: Workflow) => s.offered.get(wf.name)?.offered === true;
  const load = (s: Server) => Math.max(s.inFlight.size, s.queue);

  /** Hands waiting jobs to the least-loaded healthy server offering their workflow with a free slot, in arrival order. */
  function schedule() {
    for (let i = 0; i < waiting.length; i++) {
      const job = waiting[i];
      const fits = servers.filter((s) => healthy(s) && offers(s, job.wf) && load(s) < slots);
      if (!fits.length) continue;
      // a server that already failed this job is the last choice
      fits.sort((a, b) => Number(job.tried.has(a.url)) - Number(job.tried.has(b.url)) || load(a) - load(b));
      waiting.splice(i--, 1);
      void dispatch(job, fits[0]);
    }
  }

  /** Read through a function: cancel() may change the state while dispatch awaits. */
  const cancelled = (job: Job) => job.state === "cancelled";

  /** A new try of the job on `s`: its prompt id for this try (the same key and try always name the same prompt). */
  function assign(job: Job, s: Server): string {
    job.tries++;
    job.tried.add(s.url);
    job.server = s;
    job.posted = false;
    job.ended = false;
    job.finishing = false;
    job.state = "running";
    job.nodesDone.clear();
    job.step = 0;
    const promptId = uuidFromKey(`${job.job.key}#${job.tries}`);
    job.promptId = promptId;
    byPrompt.set(promptId, job);
    s.inFlight.add(job);
    return promptId;
  }

  async function dispatch(job: Job, s: Server) {
    const promptId = assign(job, s);
    try {
      connect(s);
      const [image, video] = await Promise.all([upload(s, job.job.image, promptId), upload(s, job.job.video, promptId)]);
      const { prompt } = await bindWorkflow(job.wf, job.job, { image, video, models: o.models, prefix: `reverie/${promptId}` });
      if (cancelled(job)) return;
      const res = await postPrompt(s, promptId, prompt);
      if (res.status === 400) {
        const { reason, workflowRefused } = await refusalOf(res);
        // a server that refuses the workflow as such (a node or model it lacks) stops being offered it
        if (workflowRefused) s.offered.set(job.wf.name, { offered: false, reason });
        throw new EngineError(`the server refused the workflow: ${reason}`);
      }
      if (!res.ok) throw new EngineError(`POST /prompt answered ${res.status}`);
      job.posted = true;
      job.postedAt = Date.now();
      if (cancelled(job)) await stopOnServer(s, promptId);
      else if (job.ended) void settle(job);
    } catch (err) {
      attemptFailed(job, (err as Error).message);
    }
  }

  function detach(job: Job) {
    job.server?.inFlight.delete(job);
    if (job.promptId) byPrompt.delete(job.promptId);
  }

  /** This server's try failed: the job goes back to the front of the queue for another, or fails when tries are used up. */
  function attemptFailed(job: Job, reason: string) {
    if (isOver(job)) return;
    const s = job.server;
    detach(job);
    const failed = tries.failed(
      job,
      `${s?.url ?? "?"}: ${reason}`,
      [{ job: job.job.key, server: s?.url, tries: job.tries, reason }, "comfyui try failed"],
      closed,
    );
    if (failed) {
      job.reject(failed);
    } else {
      job.state = "waiting";
      job.posted = false;
      waiting.unshift(job);
    }
    schedule();
  }

  /** Reads the prompt's history entry (the source of truth) and brings its outputs home. */
  async function settle(job: Job) {
    const s = job.server;
    const promptId = job.promptId;
    if (!s || !promptId || job.finishing || !job.posted) return;
    job.finishing = true;
    try {
      const h = await historyOf(s, promptId);
      if (!h) return void attemptFailed(job, "the server no longer knows the prompt (restarted?)");
      if (h.status.status_str !== "success") return void attemptFailed(job, failureOf(h));
      const files = await download(s, h, job.wf, job.job.workDir);
      detach(job);
      schedule();
      const seconds = gpuSecondsOf(h.status.messages);
      const result = {
        ...(await finishOutputs(job.job, files, job.wf.binding.output.kind)),
        gpu: seconds === undefined ? undefined : { workflow: job.wf.name, seconds },
      };
      job.state = "done";
      job.percent = 100;
      job.resolve(result);
    } catch (err) {
      job.finishing = false;
      attemptFailed(job, (err as Error).message);
    }
  }

  const health = watchHealth(servers, o, { connect, settle, attemptFailed, schedule, noteError: tries.noteError });

  const usable = (wf: Workflow) => servers.some((s) => healthy(s) && offers(s, wf));
  const statuses = () => servers.map((s) => serverStatus(s, o.workflows));

  return {
    name: "comfyui",
    label: "AI",
    servers: statuses,
    async status(): Promise<EngineStatus> {
      await health.firstCheck;
      const up = servers.filter(healthy);
      const offered = o.workflows.filter(usable);
      const available = up.length > 0 && offered.length > 0;
      return {
        engine: "comfyui",
        label: "AI",
        available,
        ai: true,
        modes: modesOf(offered),
        message: available ? `${up.length} of ${servers.length} ComfyUI servers ready.` : "The AI engine is temporarily unavailable. Please try again later.",
        fix: available ? undefined : fixFor(servers, up.length),
        servers: statuses(),
        waiting: waiting.length,
        inFlight: servers.reduce((n, s) => n + s.inFlight.size, 0),
        lastErrors: tries.recentErrors(),
      };
    },

    async submit(job) {
      if (jobs.get(job.key)) return job.key;
      await health.firstCheck;
      // the same key submitted meanwhile (while the first health round ran) attaches to that job
      if (jobs.get(job.key)) return job.key;
      const wf = chooseWorkflow(o.workflows, job, usable);
      const j: Job = {
        job,
        wf,
        tries: 0,
        tried: new Set(),
        posted: false,
        postedAt: 0,
        ended: false,
        state: "waiting",
        percent: 0,
        nodesDone: new Set(),
        step: 0,
        finishing: false,
        errors: [],
        ...settlement(),
      };
      jobs.add(job.key, j);
      waiting.push(j);
      schedule();
      return job.key;
    },

    async progress(id) {
      const j = jobs.find(id);
      return { percent: j.percent, state: shownState(j), error: j.state === "failed" ? j.errors.at(-1) : undefined };
    },

    result: jobs.result,

    async cancel(id) {
      const j = jobs.cancel(id);
      if (!j) return;
      const at = waiting.indexOf(j);
      if (at >= 0) waiting.splice(at, 1);
      const s = j.server;
      const promptId = j.promptId;
      detach(j);
      j.reject(new EngineError("cancelled"));
      schedule();
      if (s && promptId && j.posted) await stopOnServer(s, promptId);
    },

    async close() {
      closed = true;
      health.stop();
      for (const s of servers) s.ws?.terminate();
    },
  };
}
