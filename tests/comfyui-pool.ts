import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, beforeAll } from "vitest";
import { createComfyEngine } from "../server/src/domains/generation/engines/comfyui.engine.ts";
import type { ComfyOptions } from "../server/src/domains/generation/engines/comfyui.jobs.ts";
import type { EngineJob } from "../server/src/domains/generation/engines/engine.ts";
import { loadWorkflows } from "../server/src/domains/generation/engines/workflows.ts";
import { silentLog } from "./db-utils.ts";
import { startFakeComfy, type FakeComfyOptions } from "./fixtures/fake-comfyui.ts";
import { mediaDir, photo } from "./fixtures/media.ts";

/**
 * The ComfyUI pool on fake servers for one test file: `fakes` starts servers, `pool` an engine on them, `job` a job
 * with a work folder of its own and `image` a photo; everything a test started is closed after it.
 */
export function comfyPoolKit() {
  const workflows = loadWorkflows();
  let media: Awaited<ReturnType<typeof mediaDir>>;
  let cleanups: (() => Promise<unknown>)[] = [];
  let n = 0;
  const kit = {
    image: "",
    async fakes(count: number, opts: FakeComfyOptions = {}) {
      const list = await Promise.all(Array.from({ length: count }, () => startFakeComfy(opts)));
      cleanups.push(...list.map((f) => () => f.close()));
      return list;
    },
    pool(urls: string[], o: Partial<Omit<ComfyOptions, "urls">> = {}) {
      const engine = createComfyEngine({ urls, workflows, models: {}, healthMs: 200, workflowCheckMs: 60_000, maxTries: 3, log: silentLog, ...o });
      cleanups.push(() => engine.close!());
      return engine;
    },
    async job(over: Partial<EngineJob>): Promise<EngineJob> {
      const i = ++n;
      const workDir = path.join(media.dir, `job-${i}`);
      await fs.mkdir(workDir);
      return { mode: "text_to_image", workDir, params: {}, resolution: "480P", durationSec: 1, count: 1, seed: 1234, key: `test:${i}`, ...over };
    },
  };
  beforeAll(async () => {
    media = await mediaDir();
    kit.image = path.join(media.dir, "in.jpg");
    await fs.writeFile(kit.image, await photo(640, 360));
  });
  afterAll(() => media.cleanup());
  afterEach(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
    cleanups = [];
  });
  return kit;
}

/** Polls until `ok` holds, or fails naming what never happened. */
export async function until(ok: () => boolean | Promise<boolean>, what: string, ms = 10_000) {
  for (const end = Date.now() + ms; !(await ok()); ) {
    if (Date.now() > end) throw new Error(`never within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
