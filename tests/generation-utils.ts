import { spawn, type ChildProcess } from "node:child_process";
import { expect } from "vitest";
import { silentLog, visitor, type TestApp } from "./db-utils.ts";
import { startGenerationWorker } from "../server/src/worker/generation.worker.ts";
import { startTestServer } from "./server-utils.ts";

/** Test settings: fast queue maintenance, immediate retries, no free generation unless a test gives one. */
export const GENERATION_TEST_ENV = {
  QUEUE_POLL_SECONDS: "0.5",
  QUEUE_MAINTENANCE_SECONDS: "1",
  GENERATION_RETRY_DELAY_SECONDS: "0",
  GENERATION_RETRY_LIMIT: "1",
  FREE_GENERATIONS: "0",
};

/**
 * A test app on the ComfyUI engine at `comfyUrl` (its health checked every 0.3 s) with its generation worker, as the
 * GPU-path route tests start it; `env` adds or overrides settings. `stop` ends the worker, then the app.
 */
export async function startComfyTestApp(comfyUrl: string, env: Record<string, string> = {}, options?: Parameters<typeof startTestServer>[2]) {
  const app = await startTestServer(
    { ...GENERATION_TEST_ENV, GENERATION_ENGINE: "comfyui", COMFYUI_URLS: comfyUrl, COMFYUI_HEALTH_SECONDS: "0.3", ...env },
    undefined,
    options,
  );
  const worker = await startWorkerFor(app);
  return {
    app,
    async stop() {
      await worker.stop();
      await app.stop();
    },
  };
}

export function startWorkerFor(t: TestApp) {
  return startGenerationWorker({
    databaseUrl: t.testDb.url,
    config: t.config,
    log: silentLog,
    generation: t.services.generation,
    storage: t.services.storage,
    engines: t.services.engines,
    limiter: t.services.limiter,
    training: t.services.training,
    provenance: t.services.provenance,
  });
}

/** A test server rendering on the comfyui engine with one (fake) ComfyUI, its health and workflows checked often, and its worker. */
export async function startComfyApp(comfyUrl: string, dataDir: string) {
  const app = await startTestServer({
    ...GENERATION_TEST_ENV,
    DATA_DIR: dataDir,
    GENERATION_ENGINE: "comfyui",
    COMFYUI_URLS: comfyUrl,
    COMFYUI_HEALTH_SECONDS: "0.3",
    COMFYUI_WORKFLOW_CHECK_SECONDS: "1",
  });
  return { app, worker: await startWorkerFor(app) };
}

/** A guest whose credits were bought (an order), so their output carries no watermark pass (decision 296). */
export async function buyer(t: TestApp, credits: number) {
  const u = await visitor(t);
  await t.services.credits.grant({
    userId: u.userId,
    amount: credits,
    reason: "purchase",
    reference: `order:${u.userId}`,
    idempotencyKey: `order:${u.userId}`,
  });
  return u;
}

export async function grant(t: TestApp, userId: number, amount: number) {
  await t.services.credits.grant({ userId, amount, reason: "test", idempotencyKey: `test-grant:${userId}:${Math.random()}` });
}

/** Polls the task row until it ends (or the time runs out). */
export async function waitForTask(t: TestApp, id: number, timeoutMs = 30_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const task = await t.db.generationTask.findUniqueOrThrow({ where: { id } });
    if (["succeeded", "failed", "expired"].includes(task.status)) return task;
    if (Date.now() > end) throw new Error(`task ${id} still ${task.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface SseEvent {
  id: number;
  status: string;
  state: string;
  progress: number;
  [k: string]: unknown;
}

/** Reads a Server-Sent Events stream until `done` says so or the server ends it. */
export async function readSse(url: string, token: string, done: (events: SseEvent[]) => boolean = () => false, timeoutMs = 30_000): Promise<SseEvent[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const res = await fetch(url, { headers: { token }, signal: controller.signal });
  expect(res.headers.get("content-type")).toMatch(/text\/event-stream/);
  const events: SseEvent[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const data = block.split("\n").find((l) => l.startsWith("data: "));
        if (data) events.push(JSON.parse(data.slice(6)) as SseEvent);
      }
      if (done(events)) break;
    }
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return events;
}

/**
 * `npm run worker` as its own process (so a test can SIGKILL it) on the test app's database and media folder;
 * resolves once it has started. Its kill is pushed onto `cleanups`.
 */
export function spawnWorkerProcess(t: TestApp, env: Record<string, string>, cleanups: (() => Promise<void>)[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "server/src/worker/main.ts"], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "test",
      DATABASE_URL: t.testDb.url,
      DATA_DIR: t.config.DATA_DIR,
      PUBLIC_URL: t.config.publicUrl,
      LOG_LEVEL: "info",
      WORKER_CONCURRENCY: "1",
      QUEUE_POLL_SECONDS: "0.5",
      QUEUE_MAINTENANCE_SECONDS: "1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  cleanups.push(async () => void child.kill("SIGKILL"));
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`worker did not start: ${out}`)), 30_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.includes("generation worker started")) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("exit", (code) => reject(new Error(`worker exited with ${code}: ${out}`)));
  });
}

/** A finished picture of `userId`, shared in the home gallery (nothing stored behind it: enough to like, remix and list). */
export function sharedCreation(db: TestApp["db"], userId: number) {
  return db.generationTask.create({
    data: {
      userId,
      mode: "text_to_image",
      engine: "local",
      status: "succeeded",
      cost: 1,
      isPublic: true,
      input: { prompt: "a lake at dawn", seed: 7, params: {} },
    },
  });
}
