import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type WebSocket from "ws";
import type { ServerHealth } from "../../../contract/engines.ts";
import { EngineError, type EngineJob, type EngineServerStatus, type ServerMemory } from "./engine.ts";
import type { NodeFault } from "./input-faults.ts";
import type { Workflow } from "./workflows.ts";

/** One ComfyUI server of the pool and what we know of it; `J` is the engine's job. */
export interface ComfyServer<J> {
  url: string;
  /** One socket per server and process; every prompt we queue there names it. */
  clientId: string;
  ws?: WebSocket;
  health: ServerHealth;
  /** queue_remaining as the server last reported it (every client's prompts). */
  queue: number;
  offered: Map<string, { offered: boolean; reason?: string }>;
  /** Its /object_info lists Reverie's LoRA loaders (decision 330): it can run a job with a character model. */
  characterModels?: boolean;
  objectInfoAt: number;
  inFlight: Set<J>;
  /** Prompts moved away while the server did not answer: deleted or interrupted there once it answers again. */
  orphans: Set<string>;
  /**
   * Prompts we stopped that ComfyUI has not yet said ended: an interrupt takes effect only at the next node boundary
   * (comfyui.md §14), so each still holds its slot until its last message comes or the queue no longer names it.
   */
  ending: Set<string>;
  /** Out-of-memory errors in a row per workflow: the second withdraws the workflow there (issue 44 item 3). */
  outOfMemory: Map<string, number>;
  /** Connection failures in a row: the next check waits 1, 2, 4... s (capped), so a restart is noticed in seconds. */
  downs: number;
  /** When its socket last said anything: a socket quiet while our prompts are there is re-opened (issue 44 item 10). */
  heardAt: number;
  /** RAM and GPU memory by its last /system_stats. */
  memory?: ServerMemory;
  recheck?: NodeJS.Timeout;
  lastError?: string;
  checkedAt?: Date;
}

export interface QueueBody {
  queue_running: unknown[][];
  queue_pending: unknown[][];
}

interface HistoryEntry {
  outputs: Record<string, { images?: { filename: string; subfolder: string; type: string }[] }>;
  status: { status_str: string; messages: [string, Record<string, unknown>][] };
}

const API_TIMEOUT_MS = 10_000;
const DOWNLOAD_TIMEOUT_MS = 300_000;

export function comfyServer<J>(url: string): ComfyServer<J> {
  return {
    url: url.replace(/\/$/, ""),
    clientId: crypto.randomUUID(),
    health: "unchecked",
    queue: 0,
    offered: new Map(),
    objectInfoAt: 0,
    inFlight: new Set(),
    orphans: new Set(),
    ending: new Set(),
    outOfMemory: new Map(),
    downs: 0,
    heardAt: 0,
  };
}

export async function call(s: ComfyServer<unknown>, p: string, init: RequestInit & { timeoutMs?: number } = {}): Promise<Response> {
  return fetch(`${s.url}${p}`, { ...init, signal: AbortSignal.timeout(init.timeoutMs ?? API_TIMEOUT_MS) });
}
const postJson = (s: ComfyServer<unknown>, p: string, body: unknown) =>
  call(s, p, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

/** The prompts the server holds, running or waiting (comfyui.md §9). */
export const promptsIn = (q: QueueBody) => [...q.queue_running, ...q.queue_pending].map((t) => t[1]);

/** The server's queue (comfyui.md §11); null when it does not answer. */
const queueOf = (s: ComfyServer<unknown>) =>
  call(s, "/queue")
    .then((r) => r.json() as Promise<QueueBody>)
    .catch(() => null);

const isRunning = (q: QueueBody | null, promptId: string) => !!q?.queue_running.some((t) => t[1] === promptId);

/**
 * Stops a prompt of ours: deleted from the queue while pending, interrupted only while the queue says it is the one
 * running (a bare /interrupt, and a ComfyUI that ignores the prompt_id of its body, stop whatever runs now: another
 * person's prompt; comfyui.md §10, §14). An interrupt takes effect at the next node boundary, so until the prompt has
 * ended (its last message, or the queue no longer names it) it is `ending`; then what it left there is removed. A
 * server that does not answer keeps it as an orphan, stopped once it is back.
 */
export async function stopOnServer(s: ComfyServer<unknown>, promptId: string) {
  s.ending.add(promptId);
  let q = await queueOf(s);
  if (q?.queue_pending.some((t) => t[1] === promptId)) {
    await postJson(s, "/queue", { delete: [promptId] }).catch(() => undefined);
    q = await queueOf(s);
  }
  if (isRunning(q, promptId)) {
    await postJson(s, "/interrupt", { prompt_id: promptId }).catch(() => undefined);
    q = await queueOf(s);
  }
  if (!q) {
    s.ending.delete(promptId);
    s.orphans.add(promptId);
  } else if (!promptsIn(q).includes(promptId)) ended(s, promptId);
}

/** A prompt of ours has ended on the server, however it ended: nothing of it stays there. */
export function ended(s: ComfyServer<unknown>, promptId: string) {
  s.ending.delete(promptId);
  void removeTraces(s, promptId);
}

/** A prompt's last message came: one we stopped has ended (true), and nothing of it stays there. */
export function endIfStopped(s: ComfyServer<unknown>, promptId: string): boolean {
  if (!s.ending.has(promptId)) return false;
  ended(s, promptId);
  return true;
}

/**
 * Removes what a prompt of ours left on the server once it has ended, whatever its end (issue 44 item 7): its history
 * entry (comfyui.md §4), which holds the person's prompt and the names of their files, and through Reverie's node
 * (gpu/comfyui-reverie; stock ComfyUI can delete no file) the input files Reverie uploaded for it (`reverie-<prompt
 * id>*` of the input folder, decision 376) and the files its save nodes wrote (`reverie/<prompt id>_*` of the output
 * folder, decision 393). Called once its outputs are home, or when it ended without them. A server without the node
 * answers 404: its folders are the operator's to sweep (README).
 */
export async function removeTraces(s: ComfyServer<unknown>, promptId: string) {
  await Promise.all([
    postJson(s, "/history", { delete: [promptId] }).catch(() => undefined),
    ...["/reverie/inputs/delete", "/reverie/outputs/delete"].map((p) => postJson(s, p, { prompt_ids: [promptId] }).catch(() => undefined)),
  ]);
}

/**
 * A request that never reached ComfyUI (refused, reset, timed out) rather than one it answered: the server is down,
 * not the job at fault.
 */
export const isConnectionFailure = (err: unknown) =>
  err instanceof Error && ((err instanceof TypeError && err.message === "fetch failed") || err.name === "TimeoutError" || err.name === "AbortError");

/** Whether the server has the prompt queued, running or in its history. */
async function holds(s: ComfyServer<unknown>, promptId: string): Promise<boolean> {
  try {
    const q = (await (await call(s, "/queue")).json()) as QueueBody;
    if (promptsIn(q).some((id) => id === promptId)) return true;
    const h = (await (await call(s, `/history/${promptId}`)).json()) as Record<string, unknown>;
    return promptId in h;
  } catch {
    return false;
  }
}

/** POST /prompt. Its answer may be lost, not necessarily the prompt: if the server holds it, follow it rather than queue it twice. */
export async function postPrompt(s: ComfyServer<unknown>, promptId: string, prompt: unknown): Promise<Response> {
  try {
    return await postJson(s, "/prompt", { prompt, client_id: s.clientId, prompt_id: promptId });
  } catch (err) {
    if (await holds(s, promptId)) return new Response(JSON.stringify({ prompt_id: promptId }), { status: 200 });
    throw err;
  }
}

/**
 * Uploads the job's input files (/upload/image, which takes any file: comfyui.md §2), each under a name of the
 * prompt's own (`reverie-<prompt id>[-end|-audio|-ref<n>]`): a transition's two photos under two names, as the server would otherwise keep only the second
 * (overwrite). The audio only where the workflow reads it (lip sync): elsewhere it is laid under the output here.
 * Answers the names the workflow refers to them by.
 */
export async function uploadInputs(
  s: ComfyServer<unknown>,
  job: Pick<EngineJob, "image" | "references" | "endImage" | "video" | "audio">,
  wf: Workflow,
  promptId: string,
) {
  // a character's reference pictures only where the workflow reads them (decision 385)
  const refs = wf.binding.inputs.references ? (job.references ?? []) : [];
  const [image, endImage, video, audio, ...references] = await Promise.all([
    upload(s, job.image, inputName(promptId)),
    upload(s, job.endImage, inputName(promptId, "end")),
    upload(s, job.video, inputName(promptId)),
    upload(s, wf.binding.inputs.audio && job.audio, inputName(promptId, "audio")),
    ...refs.map((f, i) => upload(s, f, inputName(promptId, `ref${i + 1}`))),
  ]);
  return { image, endImage, video, audio, references: references.filter((r): r is string => !!r) };
}

/** An input's name on the server: Reverie's prefix and the prompt's id, which is how Reverie's node knows the files it may delete. */
const inputName = (promptId: string, part?: string) => ["reverie", promptId, part].filter(Boolean).join("-");

/** The save nodes' filename_prefix: ComfyUI writes `output/reverie/<prompt id>_<counter>_.<ext>`, which Reverie's node may delete (decision 393). */
export const savePrefix = (promptId: string) => `reverie/${promptId}`;

/** Uploads an input file under `name` (/upload/image); answers the name the workflow refers to it by. */
async function upload(s: ComfyServer<unknown>, file: string | undefined, name: string): Promise<string | undefined> {
  if (!file) return undefined;
  const form = new FormData();
  form.append("image", new Blob([await fs.readFile(file)]), `${name}${path.extname(file) || ".png"}`);
  form.append("type", "input");
  form.append("overwrite", "true");
  const res = await call(s, "/upload/image", { method: "POST", body: form, timeoutMs: DOWNLOAD_TIMEOUT_MS });
  if (!res.ok) throw new EngineError(`upload refused with ${res.status}`);
  const r = (await res.json()) as { name: string; subfolder?: string };
  return r.subfolder ? `${r.subfolder}/${r.name}` : r.name;
}

/**
 * Why the server refused a prompt (POST /prompt answered 400), whether it refused the workflow as such, and each node
 * input it refused (comfyui.md §8): whose fault that is, the request's or the server's, is the engine's to say.
 */
export async function refusalOf(res: Response): Promise<{ reason: string; workflowRefused: boolean; faults: NodeFault[] }> {
  const body = (await res.json().catch(() => ({}))) as {
    error?: { type?: string; message?: string };
    node_errors?: Record<string, { class_type?: string; errors?: { type?: string; details?: string; extra_info?: { input_name?: string } }[] }>;
  };
  const errors = Object.entries(body.node_errors ?? {}).flatMap(([id, n]) => (n.errors ?? []).map((e) => ({ id, n, e })));
  const details = errors.map(({ id, n, e }) => `node ${id} (${n.class_type ?? "?"}) ${e.type ?? "error"}: ${e.details ?? ""}`);
  const reason = [body.error?.message, ...details].filter(Boolean).join("; ");
  // an error naming no input is the node's as such: it matches no input the request sets
  const faults = errors.map(({ id, e }) => ({ node: id, input: e.extra_info?.input_name ?? "" }));
  return { reason, workflowRefused: body.error?.type === "invalid_prompt" || details.length > 0, faults };
}

/** The prompt's history entry, the source of truth of how it ended; undefined when the server no longer knows it. */
export async function historyOf(s: ComfyServer<unknown>, promptId: string): Promise<HistoryEntry | undefined> {
  return ((await (await call(s, `/history/${promptId}`)).json()) as Record<string, HistoryEntry>)[promptId];
}

/** PyTorch's and ComfyUI's words for a GPU out of memory (torch.OutOfMemoryError, "CUDA out of memory", "Allocation on device"). */
const OUT_OF_MEMORY = /OutOfMemory|out of memory|Allocation on device/i;

/**
 * Why a prompt that did not succeed ended, from its last status message: for a node's error, its id, class and
 * exception, the node (`fault`), and whether the GPU ran out of memory.
 */
export function failureOf(h: HistoryEntry): { reason: string; nodeError: boolean; fault?: NodeFault; outOfMemory?: boolean } {
  const last = h.status.messages.at(-1);
  if (last?.[0] === "execution_error") {
    const d = last[1];
    const exception = [d.exception_type, String(d.exception_message ?? "").trim()].filter(Boolean).join(": ");
    return {
      reason: `node ${String(d.node_id)} (${String(d.node_type)}) ${exception}`,
      nodeError: true,
      fault: { node: String(d.node_id), message: exception },
      outOfMemory: OUT_OF_MEMORY.test(exception),
    };
  }
  return { reason: last?.[0] === "execution_interrupted" ? "interrupted on the server" : h.status.status_str, nodeError: false };
}

/** Brings the files the workflow's output node (and its poster node, if any) saved into `workDir` (/view), in that order. */
export async function download(s: ComfyServer<unknown>, h: HistoryEntry, wf: Workflow, workDir: string): Promise<string[]> {
  const saved = [wf.binding.output.node, ...(wf.binding.poster ? [wf.binding.poster.node] : [])].flatMap((node) => h.outputs[node]?.images ?? []);
  return Promise.all(
    saved.map(async (img, i) => {
      const q = new URLSearchParams({ filename: img.filename, subfolder: img.subfolder, type: img.type });
      const res = await call(s, `/view?${q}`, { timeoutMs: DOWNLOAD_TIMEOUT_MS });
      if (!res.ok) throw new EngineError(`/view answered ${res.status} for ${img.filename}`);
      const file = path.join(workDir, `out-${i}${path.extname(img.filename)}`);
      await fs.writeFile(file, Buffer.from(await res.arrayBuffer()));
      return file;
    }),
  );
}

/** The server as the console shows it. */
export function serverStatus(s: ComfyServer<unknown>, workflows: Workflow[]): EngineServerStatus {
  return {
    url: s.url,
    health: s.health,
    queue: s.queue,
    inFlight: s.inFlight.size,
    workflows: workflows.map((wf) => ({
      name: wf.name,
      ...(s.offered.get(wf.name) ?? { offered: false, reason: s.health === "unreachable" ? "server unreachable" : "not checked yet" }),
    })),
    characterModels: s.characterModels,
    memory: s.memory,
    lastError: s.lastError,
    checkedAt: s.checkedAt?.toISOString(),
  };
}

/** What the operator must do when no server of the pool can run a job: start servers, or install what the workflows need. */
export function fixFor(servers: ComfyServer<unknown>[], healthy: number): string {
  return healthy
    ? `No workflow can run on the healthy servers (${servers.flatMap((s) => [...s.offered].filter(([, v]) => !v.offered).map(([k, v]) => `${s.url} ${k}: ${v.reason}`)).join("; ")}). Install the nodes and models, or set COMFYUI_MODELS.`
    : `No ComfyUI server answers (${servers.map((s) => `${s.url}: ${s.lastError ?? "not checked"}`).join("; ")}). Start them or correct COMFYUI_URLS.`;
}
