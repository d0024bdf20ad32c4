import { call, ended, promptsIn, stopOnServer, type ComfyServer, type QueueBody } from "./comfyui.server.ts";
import type { ServerMemory } from "./engine.ts";
import { reasonOf } from "./job-book.ts";
import { hasCharacterNodes } from "./lora-links.ts";

/** How a try failed: "refused" (a node or validation error), "connection" (its server went down), else "other". */
export type FailureKind = "refused" | "connection" | "other";

/** The longest wait between checks of a server that went down; the regular rounds go on meanwhile. */
const MAX_BACKOFF_MS = 8_000;
import { checkWorkflow, type ObjectInfo, type Workflow } from "./workflows.ts";

/** What a /system_stats answer says of the server's memory (comfyui.md §1); a CPU "device" is its RAM again, left out. */
function memoryOf(stats: {
  system?: { ram_total?: number; ram_free?: number };
  devices?: { name?: string; type?: string; vram_total?: number; vram_free?: number }[];
}): ServerMemory {
  return {
    ramTotal: stats.system?.ram_total ?? 0,
    ramFree: stats.system?.ram_free ?? 0,
    gpus: (stats.devices ?? []).filter((d) => d.type !== "cpu").map((d) => ({ name: d.name ?? "?", vramTotal: d.vram_total ?? 0, vramFree: d.vram_free ?? 0 })),
  };
}

/** What the health checks need of a job the engine has sent to a server. */
interface SentJob {
  posted: boolean;
  postedAt: number;
  promptId?: string;
}

/** What the engine does when a check changes a server's standing. */
export interface HealthHooks<J> {
  connect(s: ComfyServer<J>): void;
  settle(job: J): Promise<void>;
  /** The job's try ended for `reason`; "connection": its server went down, which costs the job none of its tries. */
  attemptFailed(job: J, reason: string, kind?: FailureKind): void;
  schedule(): void;
  noteError(message: string): void;
}

/**
 * Checks every server now and every `healthMs`: /system_stats and /queue, and its workflows against /object_info
 * (again every `workflowCheckMs`, or when it comes back). `firstCheck` settles when the first round has.
 */
export function watchHealth<J extends SentJob>(
  servers: ComfyServer<J>[],
  o: { workflows: Workflow[]; models: Record<string, string>; workflowCheckMs: number; healthMs: number },
  hooks: HealthHooks<J>,
) {
  /** The server answers: its queue, its workflows (again every workflowCheckMs, or when it comes back), its socket. */
  async function markHealthy(s: ComfyServer<J>, q: QueueBody, stats: Parameters<typeof memoryOf>[0], asked: number) {
    s.queue = q.queue_running.length + q.queue_pending.length;
    s.memory = memoryOf(stats);
    if (Date.now() - s.objectInfoAt >= o.workflowCheckMs || s.health !== "healthy") {
      const info = (await (await call(s, "/object_info", { timeoutMs: 60_000 })).json()) as ObjectInfo;
      for (const wf of o.workflows) s.offered.set(wf.name, checkWorkflow(wf, info, o.models));
      s.characterModels = hasCharacterNodes(info);
      s.objectInfoAt = Date.now();
    }
    s.health = "healthy";
    // the error that made it unreachable is over: the engine's recent errors keep it, with its time
    s.lastError = undefined;
    s.checkedAt = new Date();
    s.downs = 0;
    clearTimeout(s.recheck);
    hooks.connect(s);
    // a server back after a blip would still run the prompts we moved elsewhere: stop them
    for (const id of [...s.orphans]) {
      s.orphans.delete(id);
      void stopOnServer(s, id);
    }
    // the socket may have missed a prompt's end, or the server may have lost it on a restart: ask history
    const held = new Set(promptsIn(q));
    // a stopped prompt the queue no longer names has ended (a deleted pending one gets no message at all)
    for (const id of [...s.ending]) if (!held.has(id)) ended(s, id);
    for (const job of [...s.inFlight]) if (job.posted && job.postedAt < asked && !held.has(job.promptId)) void hooks.settle(job);
  }

  /**
   * The server does not answer: each of its jobs goes back to our queue, for another server (without using up a try),
   * its prompts are stopped there once it is back, and it is checked again after 1, 2, 4... s.
   */
  function markUnreachable(s: ComfyServer<J>, message: string) {
    if (s.health !== "unreachable") hooks.noteError(`${s.url} unreachable: ${message}`);
    s.health = "unreachable";
    s.lastError = message;
    s.checkedAt = new Date();
    s.ws?.terminate();
    // what we stopped or moved there is stopped and removed once it is back (issue 44 item 7)
    for (const id of s.ending) s.orphans.add(id);
    s.ending.clear();
    clearTimeout(s.recheck);
    s.recheck = setTimeout(() => void check(s), Math.min(MAX_BACKOFF_MS, 1000 * 2 ** s.downs++));
    s.recheck.unref();
    for (const job of [...s.inFlight]) {
      if (job.promptId) s.orphans.add(job.promptId);
      hooks.attemptFailed(job, `server unreachable: ${message}`, "connection");
    }
  }

  async function check(s: ComfyServer<J>) {
    const asked = Date.now();
    try {
      const [stats, queue] = await Promise.all([call(s, "/system_stats"), call(s, "/queue")]);
      if (!stats.ok || !queue.ok) throw new Error(`/system_stats ${stats.status}, /queue ${queue.status}`);
      await markHealthy(s, (await queue.json()) as QueueBody, (await stats.json()) as Parameters<typeof memoryOf>[0], asked);
    } catch (err) {
      markUnreachable(s, reasonOf(err));
    }
    hooks.schedule();
  }

  const checkAll = () => Promise.all(servers.map(check));
  const firstCheck = checkAll();
  const timer = setInterval(() => void checkAll(), o.healthMs);
  timer.unref();
  return {
    firstCheck,
    /**
     * An operator's check (the console's "Check now", `npm run gpu:check`) read the servers: each named one (all by
     * default) is checked again now, its workflows read afresh from /object_info, so what the engine offers is what the
     * check said, not what a refusal before the fix said until the next round (issue 44 item 6). Out-of-memory counts
     * start again: the operator looked at the server.
     */
    async recheck(urls?: string[]) {
      const named = servers.filter((s) => !urls || urls.includes(s.url));
      for (const s of named) {
        s.objectInfoAt = 0;
        s.outOfMemory.clear();
      }
      await Promise.all(named.map(check));
    },
    /** A request to the server met no answer: it is down from now, not from the next round. */
    markDown(s: ComfyServer<J>, message: string) {
      if (s.health !== "unreachable") markUnreachable(s, message);
    },
    stop() {
      clearInterval(timer);
      for (const s of servers) clearTimeout(s.recheck);
    },
  };
}
