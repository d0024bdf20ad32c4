import { watchHealth, type FailureKind } from "./comfyui.health.ts";
import { EngineError, UnrunnableError, type EngineServerStatus, type EngineStatus, type GenerationEngine } from "./engine.ts";
import {
  comfyServer,
  download,
  failureOf,
  fixFor,
  historyOf,
  isConnectionFailure,
  postPrompt,
  refusalOf,
  serverStatus,
  stopOnServer,
  endIfStopped,
  removeTraces,
  savePrefix,
  uploadInputs,
  type ComfyServer,
} from "./comfyui.server.ts";
import { gpuRunOf } from "./gpu-time.ts";
import { judgeFailures } from "./comfyui.verdicts.ts";
import { createNodeTimings, followPrompt, percentOf } from "./comfyui.progress.ts";
import { openSocket, queueRemaining, reopenIfQuiet, type SocketMessage } from "./comfyui.socket.ts";
import { couldRun, newJob, offers, startTry, whereIs, whyNowhere, type ComfyJob, type ComfyOptions } from "./comfyui.jobs.ts";
import { createJobBook, createTryRecord, isOver, reasonOf, shownState } from "./job-book.ts";
import { finishOutputs } from "./outputs.ts";
import { modesOf } from "./workflow-binding.ts";
import { chooseWorkflow } from "./workflow-choice.ts";
import { bindWorkflow, type Workflow } from "./workflows.ts";

/**
 * The `comfyui` engine: a pool of ComfyUI servers (decision 081), following /work/shared/protocols/comfyui.md. Each
 * server is health-checked (/system_stats, /queue) and its workflows checked against /object_info; a job waits in our
 * queue until a healthy server offering its workflow has a free slot (least loaded first), is uploaded (/upload/image),
 * queued (POST /prompt with our own prompt_id and client_id), followed on the /ws socket and settled from
 * /history/{prompt_id}, the truth when the socket drops, then deleted there. A server that goes down hands its jobs
 * back to our queue at no cost of a try; one that forgets the prompt hands the job on, up to `maxTries`; a node or
 * validation error is not tried again where it was raised, and a job no server can run any more fails at once (decision
 * 236); one failed by the request's own input fails alone, leaving the workflow offered (decision 335). A cancel
 * deletes a queued prompt or interrupts a running one; an ended prompt leaves nothing on the server (decision 376).
 */
type Job = ComfyJob;
type Server = ComfyServer<Job>;

export function createComfyEngine(o: ComfyOptions): GenerationEngine & { servers(): EngineServerStatus[]; recheck(urls?: string[]): Promise<void> } {
  const slots = o.slotsPerServer ?? 2;
  const servers: Server[] = o.urls.map((url) => comfyServer<Job>(url));
  const jobs = createJobBook<Job>();
  const tries = createTryRecord(o);
  const byPrompt = new Map<string, Job>();
  const waiting: Job[] = [];
  const timings = createNodeTimings();
  let closed = false;

  const quietMs = o.socketQuietMs ?? 30_000;
  function connect(s: Server) {
    const heard = (m: SocketMessage) => onMessage(s, m);
    if (!closed && !reopenIfQuiet(s, quietMs, heard)) openSocket(s, heard);
  }

  function onMessage(s: Server, m: SocketMessage) {
    if (m.type === "status") {
      const q = queueRemaining(m);
      if (typeof q === "number") s.queue = q;
      return;
    }
    // a stopped prompt's last message: ComfyUI is done with it, and its slot is free
    if (m.type === "executing" && m.data.node === null && endIfStopped(s, String(m.data.prompt_id))) schedule();
    const job = typeof m.data.prompt_id === "string" ? byPrompt.get(m.data.prompt_id) : undefined;
    if (!job || job.server !== s) return;
    // an execution_error is not noted here: settle reads the same record from history and notes it once, with the try
    if (followPrompt(job.seen, m, Date.now(), (node, ms) => timings.learn(s.url, job.wf.name, node, ms))) void settle(job);
  }

  const healthy = (s: Server) => s.health === "healthy";
  const load = (s: Server) => Math.max(s.inFlight.size, s.queue);
  /** A server still finishing a prompt we stopped is busy: a retry must not queue behind it (comfyui.md §14). */
  const free = (s: Server) => !s.ending.size && load(s) < slots;

  /**
   * Hands waiting jobs to the least-loaded healthy server offering their workflow with a free slot, in arrival order;
   * a job no server could run any more fails now rather than at its time-out.
   */
  function schedule() {
    for (let i = 0; i < waiting.length; i++) {
      const job = waiting[i];
      if (!servers.some((s) => couldRun(s, job))) {
        waiting.splice(i--, 1);
        giveUp(job);
        continue;
      }
      const fits = servers.filter((s) => healthy(s) && couldRun(s, job) && free(s));
      if (!fits.length) continue;
      // a server that already failed this job is the last choice
      fits.sort((a, b) => Number(job.tried.has(a.url)) - Number(job.tried.has(b.url)) || load(a) - load(b));
      waiting.splice(i--, 1);
      void dispatch(job, fits[0]);
    }
  }

  /** Read through a function: cancel() may change the state while dispatch awaits. */
  const cancelled = (job: Job) => job.state === "cancelled";

  /** A new try of the job on `s`: its prompt id for this try. */
  function assign(job: Job, s: Server): string {
    const promptId = startTry(job, s);
    byPrompt.set(promptId, job);
    s.inFlight.add(job);
    job.job.onTry?.({ workflow: job.wf.name, server: s.url });
    return promptId;
  }

  async function dispatch(job: Job, s: Server) {
    const promptId = assign(job, s);
    try {
      connect(s);
      const inputs = await uploadInputs(s, job.job, job.wf, promptId);
      const { prompt } = await bindWorkflow(job.wf, job.job, { ...inputs, models: o.models, prefix: savePrefix(promptId), server: s.url, links: o.loraLinks });
      job.seen.nodes = Object.keys(prompt);
      // its photo is on the server already: nothing of a prompt that never runs stays there (issue 44 item 7)
      if (cancelled(job)) return void removeTraces(s, promptId);
      const res = await postPrompt(s, promptId, prompt);
      if (res.status === 400) {
        void removeTraces(s, promptId);
        return verdicts.refusal(job, s, await refusalOf(res));
      }
      if (!res.ok) throw new EngineError(`POST /prompt answered ${res.status}`);
      job.posted = true;
      job.postedAt = Date.now();
      if (cancelled(job)) await stopOnServer(s, promptId);
      else if (job.ended) void settle(job);
    } catch (err) {
      failedOn(job, s, promptId, err);
    }
  }

  /**
   * A request for the job's prompt failed: a server that did not answer is down (the job waits for another, the prompt
   * is stopped and removed there once it is back), else the try failed and what the prompt left there is removed.
   */
  function failedOn(job: Job, s: Server, promptId: string, err: unknown) {
    if (!isConnectionFailure(err)) {
      void removeTraces(s, promptId);
      return attemptFailed(job, (err as Error).message);
    }
    s.orphans.add(promptId);
    health.markDown(s, reasonOf(err));
    // already marked down meanwhile: its jobs were handed back then, but not this one's request
    if (s.inFlight.has(job)) attemptFailed(job, `server unreachable: ${reasonOf(err)}`, "connection");
  }

  /** No server could run the job any more: it fails now, for the last reason it met (or why no server offers it). */
  function giveUp(job: Job) {
    const err = tries.failed(job, whyNowhere(servers, job), [{ job: job.job.key, workflow: job.wf.name }, "comfyui job cannot run anywhere"], true)!;
    job.reject(new UnrunnableError(err.message));
  }

  function detach(job: Job) {
    job.server?.inFlight.delete(job);
    if (job.promptId) byPrompt.delete(job.promptId);
  }

  /**
   * This server's try failed: the job goes back to the front of the queue for another, or fails when tries are used
   * up. A server that went down costs the job no try.
   */
  function attemptFailed(job: Job, reason: string, kind: FailureKind = "other") {
    if (isOver(job)) return;
    const s = job.server;
    detach(job);
    if (kind === "connection") job.tries--;
    const failed = tries.failed(
      job,
      `${s?.url ?? "?"}: ${reason}`,
      [{ job: job.job.key, server: s?.url, tries: job.tries, reason }, "comfyui try failed"],
      closed,
    );
    if (failed) {
      job.reject(servers.some((x) => couldRun(x, job)) ? failed : new UnrunnableError(failed.message));
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
      // it has ended, whatever its end: its history entry and inputs go (a restart kept the inputs)
      if (h?.status.status_str !== "success") void removeTraces(s, promptId);
      if (!h) return void attemptFailed(job, "the server no longer knows the prompt (restarted?)");
      if (h.status.status_str !== "success") return verdicts.failure(job, s, failureOf(h));
      s.outOfMemory.delete(job.wf.name);
      const files = await download(s, h, job.wf, job.job.workDir);
      void removeTraces(s, promptId);
      detach(job);
      schedule();
      const result = { ...(await finishOutputs(job.job, files, job.wf.binding.output.kind)), gpu: gpuRunOf(job.wf.name, h.status.messages) };
      job.state = "done";
      job.percent = 100;
      job.resolve(result);
    } catch (err) {
      job.finishing = false;
      failedOn(job, s, promptId, err);
    }
  }

  const verdicts = judgeFailures<Job>({
    log: o.log,
    attemptFailed,
    end(job, err) {
      detach(job);
      job.reject(err);
      schedule();
    },
  });

  const health = watchHealth(servers, o, { connect, settle, attemptFailed, schedule, noteError: tries.noteError });

  const usable = (wf: Workflow) => servers.some((s) => healthy(s) && offers(s, wf));
  const statuses = () => servers.map((s) => serverStatus(s, o.workflows));

  return {
    name: "comfyui",
    label: "AI",
    servers: statuses,
    recheck: health.recheck,
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
        workflows: offered.map((wf) => wf.name),
        characterModels: up.some((s) => s.characterModels !== false),
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
      const j = newJob(job, chooseWorkflow(o.workflows, job, usable));
      jobs.add(job.key, j);
      waiting.push(j);
      schedule();
      return job.key;
    },

    async progress(id) {
      const j = jobs.find(id);
      // read now, not only when a message comes: a node that sends none (a text encode) still moves it as time passes
      if (j.state === "running" && j.server) j.percent = Math.max(j.percent, percentOf(j.seen, timings.known(j.server.url, j.wf.name), Date.now()));
      return { percent: j.percent, state: shownState(j), error: j.state === "failed" ? j.errors.at(-1) : undefined };
    },

    result: jobs.result,

    async cancel(id, reason) {
      // said before the job is marked cancelled: where it stood is half of why it timed out
      const where = jobs.get(id) && whereIs(jobs.get(id)!);
      const j = jobs.cancel(id);
      if (!j) return;
      const at = waiting.indexOf(j);
      if (at >= 0) waiting.splice(at, 1);
      const s = j.server;
      const promptId = j.promptId;
      detach(j);
      j.reject(new EngineError(reason ? [`${reason} ${where}`, ...j.errors].join(" | ") : "cancelled"));
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
