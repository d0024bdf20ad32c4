import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { Logger } from "pino";
import WebSocket from "ws";
import type { ServerHealth } from "../../../contract/engines.ts";
import { EngineError, type EngineJob, type EngineProgress, type EngineResult, type EngineServerStatus, type EngineStatus, type GenerationEngine } from "./engine.ts";
import { finishOutputs, uuidFromKey } from "./outputs.ts";
import { bindWorkflow, checkWorkflow, chooseWorkflow, modesOf, type ObjectInfo, type Workflow } from "./workflows.ts";

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

interface Server {
  url: string;
  /** One socket per server and process; every prompt we queue there names it. */
  clientId: string;
  ws?: WebSocket;
  health: ServerHealth;
  /** queue_remaining as the server last reported it (every client's prompts). */
  queue: number;
  offered: Map<string, { offered: boolean; reason?: string }>;
  objectInfoAt: number;
  inFlight: Set<Job>;
  /** Prompts moved away while the server did not answer: deleted or interrupted there once it answers again. */
  orphans: Set<string>;
  lastError?: string;
  checkedAt?: Date;
}

interface Job {
  id: string;
  job: EngineJob;
  wf: Workflow;
  tries: number;
  tried: Set<string>;
  server?: Server;
  promptId?: string;
  /** POST /prompt answered 200: the server holds it (since postedAt). */
  posted: boolean;
  postedAt: number;
  /** The prompt's last message came before POST /prompt's answer did. */
  ended: boolean;
  state: EngineProgress["state"] | "waiting";
  percent: number;
  nodesDone: Set<string>;
  step: number;
  finishing: boolean;
  errors: string[];
  done: Promise<EngineResult>;
  resolve(r: EngineResult): void;
  reject(e: Error): void;
}

const API_TIMEOUT_MS = 10_000;
const DOWNLOAD_TIMEOUT_MS = 300_000;

export function createComfyEngine(o: ComfyOptions): GenerationEngine & { servers(): EngineServerStatus[] } {
  const slots = o.slotsPerServer ?? 2;
  const servers: Server[] = o.urls.map((url) => ({ url: url.replace(/\/$/, ""), clientId: crypto.randomUUID(), health: "unchecked", queue: 0, offered: new Map(), objectInfoAt: 0, inFlight: new Set(), orphans: new Set() }));
  const jobs = new Map<string, Job>();
  const byPrompt = new Map<string, Job>();
  const waiting: Job[] = [];
  const lastErrors: { at: string; message: string }[] = [];
  let closed = false;

  const noteError = (message: string) => {
    lastErrors.unshift({ at: new Date().toISOString(), message });
    lastErrors.length = Math.min(lastErrors.length, 10);
  };

  async function call(s: Server, p: string, init: RequestInit & { timeoutMs?: number } = {}): Promise<Response> {
    return fetch(`${s.url}${p}`, { ...init, signal: AbortSignal.timeout(init.timeoutMs ?? API_TIMEOUT_MS) });
  }
  const postJson = (s: Server, p: string, body: unknown) => call(s, p, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

  // ---- sockets ----

  function connect(s: Server) {
    if (closed || (s.ws && s.ws.readyState <= WebSocket.OPEN)) return;
    const ws = new WebSocket(`${s.url.replace(/^http/, "ws")}/ws?clientId=${s.clientId}`);
    s.ws = ws;
    ws.on("message", (data, isBinary) => {
      // binary frames are previews (comfyui.md §3): not ours to show
      if (!isBinary) onMessage(s, String(data));
    });
    ws.on("error", () => undefined);
    // a dropped socket is re-opened by the next health round; /history covers what it missed meanwhile
    ws.on("close", () => s.ws === ws && (s.ws = undefined));
  }

  function onMessage(s: Server, text: string) {
    let msg: { type?: string; data?: Record<string, unknown> };
    try {
      msg = JSON.parse(text) as typeof msg;
    } catch {
      return;
    }
    const d = msg.data ?? {};
    if (msg.type === "status") {
      const q = (d.status as { exec_info?: { queue_remaining?: number } } | undefined)?.exec_info?.queue_remaining;
      if (typeof q === "number") s.queue = q;
      return;
    }
    const job = typeof d.prompt_id === "string" ? byPrompt.get(d.prompt_id) : undefined;
    if (!job || job.server !== s) return;
    switch (msg.type) {
      case "executing":
        if (d.node === null) {
          job.ended = true;
          void settle(job);
        }
        else if (typeof d.node === "string") job.step = 0;
        break;
      case "progress":
        job.step = Number(d.value) / Math.max(1, Number(d.max));
        break;
      case "progress_state":
        for (const [id, n] of Object.entries((d.nodes ?? {}) as Record<string, { state?: string }>)) if (n.state === "finished") job.nodesDone.add(id);
        break;
      case "execution_error":
        // history holds the same record; settle reads it once the prompt's last message (executing null) comes
        noteError(`${s.url}: ${String(d.node_type ?? "")} ${String(d.exception_message ?? "execution error").trim()}`);
        break;
    }
    const total = Object.keys(job.wf.graph).length;
    job.percent = Math.max(job.percent, Math.min(95, Math.floor((95 * (job.nodesDone.size + job.step)) / total)));
  }

  // ---- scheduling ----

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

  async function dispatch(job: Job, s: Server) {
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
    try {
      connect(s);
      const upload = async (file: string | undefined) => {
        if (!file) return undefined;
        const form = new FormData();
        form.append("image", new Blob([await fs.readFile(file)]), `${promptId}${path.extname(file) || ".png"}`);
        form.append("type", "input");
        form.append("overwrite", "true");
        const res = await call(s, "/upload/image", { method: "POST", body: form, timeoutMs: DOWNLOAD_TIMEOUT_MS });
        if (!res.ok) throw new EngineError(`upload refused with ${res.status}`);
        const r = (await res.json()) as { name: string; subfolder?: string };
        return r.subfolder ? `${r.subfolder}/${r.name}` : r.name;
      };
      const [image, video] = await Promise.all([upload(job.job.image), upload(job.job.video)]);
      const { prompt } = await bindWorkflow(job.wf, job.job, { image, video, models: o.models, prefix: `reverie/${promptId}` });
      if (cancelled(job)) return;
      let res: Response;
      try {
        res = await postJson(s, "/prompt", { prompt, client_id: s.clientId, prompt_id: promptId });
      } catch (err) {
        // the answer was lost, not necessarily the prompt: if the server holds it, follow it rather than queue it twice
        if (await holds(s, promptId)) res = new Response(JSON.stringify({ prompt_id: promptId }), { status: 200 });
        else throw err;
      }
      if (res.status === 400) {
        const body = (await res.json().catch(() => ({}))) as { error?: { type?: string; message?: string }; node_errors?: Record<string, { class_type?: string; errors?: { type?: string; details?: string }[] }> };
        const details = Object.entries(body.node_errors ?? {}).flatMap(([id, n]) => (n.errors ?? []).map((e) => `${n.class_type ?? id}: ${e.details ?? e.type}`));
        const reason = [body.error?.message, ...details].filter(Boolean).join("; ");
        // a server that refuses the workflow as such (a node or model it lacks) stops being offered it
        if (body.error?.type === "invalid_prompt" || details.length) s.offered.set(job.wf.name, { offered: false, reason });
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

  /** Pending prompts are deleted from the queue; a running one is interrupted (comfyui.md §10, §11). */
  async function stopOnServer(s: Server, promptId: string) {
    await postJson(s, "/queue", { delete: [promptId] }).catch(() => undefined);
    await postJson(s, "/interrupt", { prompt_id: promptId }).catch(() => undefined);
  }

  /** Whether the server has the prompt queued, running or in its history. */
  async function holds(s: Server, promptId: string): Promise<boolean> {
    try {
      const q = (await (await call(s, "/queue")).json()) as { queue_running: unknown[][]; queue_pending: unknown[][] };
      if ([...q.queue_running, ...q.queue_pending].some((t) => t[1] === promptId)) return true;
      const h = (await (await call(s, `/history/${promptId}`)).json()) as Record<string, unknown>;
      return promptId in h;
    } catch {
      return false;
    }
  }

  function detach(job: Job) {
    job.server?.inFlight.delete(job);
    if (job.promptId) byPrompt.delete(job.promptId);
  }

  /** This server's try failed: the job goes back to the front of the queue for another, or fails when tries are used up. */
  function attemptFailed(job: Job, reason: string) {
    if (job.state === "done" || job.state === "failed" || job.state === "cancelled") return;
    const s = job.server;
    detach(job);
    job.errors.push(`${s?.url ?? "?"}: ${reason}`);
    noteError(`${s?.url ?? "?"}: ${reason}`);
    o.log.warn({ job: job.id, server: s?.url, tries: job.tries, reason }, "comfyui try failed");
    if (job.tries >= o.maxTries || closed) {
      job.state = "failed";
      job.reject(new EngineError(`every try failed: ${job.errors.join(" | ")}`));
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
      const h = ((await (await call(s, `/history/${promptId}`)).json()) as Record<string, { outputs: Record<string, { images?: { filename: string; subfolder: string; type: string }[] }>; status: { status_str: string; messages: [string, Record<string, unknown>][] } }>)[promptId];
      if (!h) return void attemptFailed(job, "the server no longer knows the prompt (restarted?)");
      if (h.status.status_str !== "success") {
        const last = h.status.messages.at(-1);
        const why = last?.[0] === "execution_error" ? `${String(last[1].node_type)}: ${String(last[1].exception_message ?? "").trim()}` : last?.[0] === "execution_interrupted" ? "interrupted on the server" : h.status.status_str;
        return void attemptFailed(job, why);
      }
      const images = h.outputs[job.wf.binding.output.node]?.images ?? [];
      const files: string[] = [];
      for (const [i, img] of images.entries()) {
        const q = new URLSearchParams({ filename: img.filename, subfolder: img.subfolder, type: img.type });
        const res = await call(s, `/view?${q}`, { timeoutMs: DOWNLOAD_TIMEOUT_MS });
        if (!res.ok) throw new EngineError(`/view answered ${res.status} for ${img.filename}`);
        const file = path.join(job.job.workDir, `out-${i}${path.extname(img.filename)}`);
        await fs.writeFile(file, Buffer.from(await res.arrayBuffer()));
        files.push(file);
      }
      detach(job);
      schedule();
      const result = await finishOutputs(job.job, files, job.wf.binding.output.kind);
      job.state = "done";
      job.percent = 100;
      job.resolve(result);
    } catch (err) {
      job.finishing = false;
      attemptFailed(job, (err as Error).message);
    }
  }

  // ---- health ----

  async function check(s: Server) {
    const asked = Date.now();
    try {
      const [stats, queue] = await Promise.all([call(s, "/system_stats"), call(s, "/queue")]);
      if (!stats.ok || !queue.ok) throw new Error(`/system_stats ${stats.status}, /queue ${queue.status}`);
      const q = (await queue.json()) as { queue_running: unknown[][]; queue_pending: unknown[][] };
      s.queue = q.queue_running.length + q.queue_pending.length;
      if (Date.now() - s.objectInfoAt >= o.workflowCheckMs || s.health !== "healthy") {
        const info = (await (await call(s, "/object_info", { timeoutMs: 60_000 })).json()) as ObjectInfo;
        for (const wf of o.workflows) s.offered.set(wf.name, checkWorkflow(wf, info, o.models));
        s.objectInfoAt = Date.now();
      }
      s.health = "healthy";
      s.checkedAt = new Date();
      connect(s);
      // a server back after a blip would still run the prompts we moved elsewhere: stop them
      for (const id of [...s.orphans]) {
        s.orphans.delete(id);
        void stopOnServer(s, id);
      }
      // the socket may have missed a prompt's end, or the server may have lost it on a restart: ask history
      const held = new Set([...q.queue_running, ...q.queue_pending].map((t) => t[1]));
      for (const job of [...s.inFlight]) if (job.posted && job.postedAt < asked && !held.has(job.promptId)) void settle(job);
    } catch (err) {
      const message = err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
      if (s.health !== "unreachable") noteError(`${s.url} unreachable: ${message}`);
      s.health = "unreachable";
      s.lastError = message;
      s.checkedAt = new Date();
      s.ws?.terminate();
      for (const job of [...s.inFlight]) {
        if (job.posted && job.promptId) s.orphans.add(job.promptId);
        attemptFailed(job, `server unreachable: ${message}`);
      }
    }
    schedule();
  }

  const checkAll = () => Promise.all(servers.map(check));
  const firstCheck = checkAll();
  const timer = setInterval(() => void checkAll(), o.healthMs);
  timer.unref();

  function serverStatus(s: Server): EngineServerStatus {
    return {
      url: s.url,
      health: s.health,
      queue: s.queue,
      inFlight: s.inFlight.size,
      workflows: o.workflows.map((wf) => ({ name: wf.name, ...(s.offered.get(wf.name) ?? { offered: false, reason: s.health === "unreachable" ? "server unreachable" : "not checked yet" }) })),
      lastError: s.lastError,
      checkedAt: s.checkedAt?.toISOString(),
    };
  }

  const usable = (wf: Workflow) => servers.some((s) => healthy(s) && offers(s, wf));

  return {
    name: "comfyui",
    label: "AI",
    servers: () => servers.map(serverStatus),
    async status(): Promise<EngineStatus> {
      await firstCheck;
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
        fix: available
          ? undefined
          : up.length
            ? `No workflow can run on the healthy servers (${servers.flatMap((s) => [...s.offered].filter(([, v]) => !v.offered).map(([k, v]) => `${s.url} ${k}: ${v.reason}`)).join("; ")}). Install the nodes and models, or set COMFYUI_MODELS.`
            : `No ComfyUI server answers (${servers.map((s) => `${s.url}: ${s.lastError ?? "not checked"}`).join("; ")}). Start them or correct COMFYUI_URLS.`,
        servers: servers.map(serverStatus),
        waiting: waiting.length,
        inFlight: servers.reduce((n, s) => n + s.inFlight.size, 0),
        lastErrors: [...lastErrors],
      };
    },

    async submit(job) {
      const existing = jobs.get(job.key);
      if (existing) return existing.id;
      await firstCheck;
      // the same key submitted meanwhile (while the first health round ran) attaches to that job
      const raced = jobs.get(job.key);
      if (raced) return raced.id;
      const wf = chooseWorkflow(o.workflows, job, usable);
      let resolve!: (r: EngineResult) => void;
      let reject!: (e: Error) => void;
      const done = new Promise<EngineResult>((res, rej) => ((resolve = res), (reject = rej)));
      done.catch(() => undefined);
      const j: Job = { id: job.key, job, wf, tries: 0, tried: new Set(), posted: false, postedAt: 0, ended: false, state: "waiting", percent: 0, nodesDone: new Set(), step: 0, finishing: false, errors: [], done, resolve, reject };
      jobs.set(j.id, j);
      waiting.push(j);
      schedule();
      return j.id;
    },

    async progress(id) {
      const j = jobs.get(id);
      if (!j) throw new EngineError(`unknown job ${id}`);
      return { percent: j.percent, state: j.state === "waiting" ? "running" : j.state, error: j.state === "failed" ? j.errors.at(-1) : undefined };
    },

    async result(id) {
      const j = jobs.get(id);
      if (!j) throw new EngineError(`unknown job ${id}`);
      try {
        return await j.done;
      } finally {
        jobs.delete(id);
      }
    },

    async cancel(id) {
      const j = jobs.get(id);
      if (!j || j.state === "done" || j.state === "failed" || j.state === "cancelled") return;
      const at = waiting.indexOf(j);
      if (at >= 0) waiting.splice(at, 1);
      const s = j.server;
      const promptId = j.promptId;
      detach(j);
      j.state = "cancelled";
      j.reject(new EngineError("cancelled"));
      schedule();
      if (s && promptId && j.posted) await stopOnServer(s, promptId);
    },

    async close() {
      closed = true;
      clearInterval(timer);
      for (const s of servers) s.ws?.terminate();
    },
  };
}
