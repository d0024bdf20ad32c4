import type { SocketMessage } from "./comfyui.socket.ts";

/**
 * A prompt's percentage from every node's completion, each node weighted by what it took on that server the last times
 * the workflow ran there (docs/decisions/242): model loads, text encodes and decodes move it, not only sampler steps.
 */

/** What the socket has said so far of one of our prompts, and when. */
export interface PromptSeen {
  /** The nodes of the prompt as posted (a LoRA loader is dropped when there is no LoRA). */
  nodes: string[];
  /** The prompt's last message (executing, node null) came. */
  ended: boolean;
  /** Nodes finished or answered from ComfyUI's cache. */
  done: Set<string>;
  running?: string;
  /** When the running node started, on this process's clock (ms). */
  since: number;
  /** The running node's own progress, 0..1, from its `progress` messages; unset for a node that sends none (a text encode). */
  step?: number;
}

export const promptSeen = (nodes: string[] = []): PromptSeen => ({ nodes, ended: false, done: new Set(), since: 0 });

/** How much of its expected time a node without `progress` messages may be shown to have done: a slow one never looks finished. */
const TIMED_SHARE_MAX = 0.9;
/** A new measurement's share in a node's expected time: recent runs count most, one odd run does not swing it. */
const NEW_SHARE = 0.3;
/** The rest (bringing the outputs home) comes after the prompt's end. */
const PROMPT_SHARE = 95;

/** How long each node of each workflow took on each server, in this process (ms). */
export function createNodeTimings() {
  const memory = new Map<string, Map<string, number>>();
  const key = (server: string, workflow: string) => `${server} ${workflow}`;
  return {
    learn(server: string, workflow: string, node: string, ms: number) {
      const k = key(server, workflow);
      const nodes = memory.get(k) ?? new Map<string, number>();
      const before = nodes.get(node);
      nodes.set(node, before === undefined ? ms : before * (1 - NEW_SHARE) + ms * NEW_SHARE);
      memory.set(k, nodes);
    },
    known: (server: string, workflow: string): ReadonlyMap<string, number> => memory.get(key(server, workflow)) ?? new Map(),
  };
}

export type NodeTimings = ReturnType<typeof createNodeTimings>;

/** The running node ended (finished, not failed): how long it took is learnt. */
function finishRunning(p: PromptSeen, now: number, learn: (node: string, ms: number) => void) {
  if (p.running === undefined) return;
  if (!p.done.has(p.running)) learn(p.running, now - p.since);
  p.done.add(p.running);
  p.running = undefined;
  p.step = undefined;
}

/**
 * Follows a message about the prompt (comfyui.md §3, §6, §10): which node runs since when, which are done, the running
 * node's steps; each node that finishes is passed to `learn` with its time. True when the message is the prompt's last.
 */
export function followPrompt(p: PromptSeen, m: SocketMessage, now: number, learn: (node: string, ms: number) => void): boolean {
  const d = m.data;
  switch (m.type) {
    case "execution_cached":
      // answered from the cache: done, in no time that says anything of the node
      for (const id of (d.nodes ?? []) as string[]) p.done.add(id);
      break;
    case "executing":
      finishRunning(p, now, learn);
      if (d.node === null) {
        p.ended = true;
        return true;
      }
      if (typeof d.node === "string") Object.assign(p, { running: d.node, since: now, step: undefined });
      break;
    case "progress":
      if (d.node === undefined || d.node === p.running) p.step = Number(d.value) / Math.max(1, Number(d.max));
      break;
    case "progress_state":
      for (const [id, n] of Object.entries((d.nodes ?? {}) as Record<string, { state?: string }>)) {
        if (n.state !== "finished") continue;
        if (id === p.running) finishRunning(p, now, learn);
        else p.done.add(id);
      }
      break;
    case "execution_success":
      finishRunning(p, now, learn);
      break;
    case "execution_error":
    case "execution_interrupted":
      // a node that failed or was stopped took no time worth learning
      p.running = undefined;
      break;
  }
  return false;
}

/**
 * The prompt's percentage, up to 95: finished nodes by their weight, and the running node's share by its steps or,
 * for a node that sends none, by the time it has run against the time it took before. A node never timed on this
 * server weighs as the average of those that were (all alike before the first run).
 */
export function percentOf(p: PromptSeen, known: ReadonlyMap<string, number>, now: number): number {
  const measured = p.nodes.flatMap((n) => known.get(n) ?? []);
  const fallback = measured.length ? measured.reduce((a, b) => a + b, 0) / measured.length : 1;
  const weight = (n: string) => Math.max(known.get(n) ?? fallback, 1e-3);
  const total = p.nodes.reduce((sum, n) => sum + weight(n), 0);
  if (!total) return 0;
  let done = p.nodes.filter((n) => p.done.has(n)).reduce((sum, n) => sum + weight(n), 0);
  if (p.running !== undefined && !p.done.has(p.running)) {
    const expected = known.get(p.running);
    const share = p.step ?? (expected === undefined ? 0 : Math.min(TIMED_SHARE_MAX, (now - p.since) / expected));
    done += weight(p.running) * share;
  }
  return Math.min(PROMPT_SHARE, Math.floor((PROMPT_SHARE * done) / total));
}
