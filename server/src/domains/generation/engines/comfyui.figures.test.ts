import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { silentLog } from "../../../../../tests/db-utils.ts";
import { startFakeComfy, type FakeComfyOptions } from "../../../../../tests/fixtures/fake-comfyui.ts";
import { mediaDir } from "../../../../../tests/fixtures/media.ts";
import { createComfyEngine } from "./comfyui.engine.ts";
import type { EngineJob, EngineTry } from "./engine.ts";
import { loadWorkflows } from "./workflows.ts";

/** What the comfyui engine tells the console and the person while a job runs: its percentage, its tries, its errors. */

const workflows = loadWorkflows();
let media: Awaited<ReturnType<typeof mediaDir>>;
const stops: (() => Promise<unknown>)[] = [];
beforeAll(async () => {
  media = await mediaDir();
});
afterAll(() => media.cleanup());
afterEach(async () => {
  while (stops.length) await stops.pop()!().catch(() => undefined);
});

async function setUp(opts: FakeComfyOptions = {}, maxTries = 3) {
  const fake = await startFakeComfy(opts);
  const engine = createComfyEngine({ urls: [fake.url], workflows, models: {}, healthMs: 100, workflowCheckMs: 60_000, maxTries, log: silentLog });
  stops.push(
    () => fake.close(),
    () => engine.close!(),
  );
  return { fake, engine };
}

let n = 0;
async function textToImage(prompt: string, onTry?: (t: EngineTry) => void): Promise<EngineJob> {
  const workDir = path.join(media.dir, `figures-${++n}`);
  await fs.mkdir(workDir);
  return { mode: "text_to_image", prompt, workDir, params: {}, resolution: "480P", durationSec: 1, count: 1, seed: n, key: `figures:${n}`, onTry };
}

async function until(ok: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("comfyui engine: progress, tries and errors as the console sees them", () => {
  it("moves the percentage through a slow text encode, weighted by what it took on that server before", async () => {
    const { fake, engine } = await setUp({ msPerNode: { CLIPTextEncode: 600 }, msPerStep: 5 });
    // the first run teaches the engine how long each node takes there
    await engine.result(await engine.submit(await textToImage("a lighthouse")));
    const id = await engine.submit(await textToImage("a harbour at dusk"));
    const duringEncode: number[] = [];
    const sampler = setInterval(() => {
      const running = fake.runningClass();
      void engine.progress(id).then(
        (p) => running === "CLIPTextEncode" && duringEncode.push(p.percent),
        () => undefined,
      );
    }, 10);
    try {
      await engine.result(id);
    } finally {
      clearInterval(sampler);
    }
    // before, only sampler steps moved it: one value for the whole encode
    expect(new Set(duringEncode).size).toBeGreaterThanOrEqual(5);
    expect(duringEncode).toEqual([...duringEncode].sort((a, b) => a - b));
  }, 20_000);

  it("tells which workflow each try ran on which server", async () => {
    const { fake, engine } = await setUp();
    const tries: EngineTry[] = [];
    await engine.result(await engine.submit(await textToImage("a lighthouse", (t) => tries.push(t))));
    expect(tries).toHaveLength(1);
    expect(tries[0].server).toBe(fake.url);
    expect(workflows.find((w) => w.name === tries[0].workflow)?.binding.modes).toContain("text_to_image");
  });

  it("lists a node error once, and drops a server's last error once it is healthy again", async () => {
    const { fake, engine } = await setUp({}, 1);
    // a first job opens the server's socket, so the error comes both on the socket and in history
    await engine.result(await engine.submit(await textToImage("warm")));
    fake.state.failNext = 1;
    await expect(engine.result(await engine.submit(await textToImage("x")))).rejects.toThrow(/CUDA out of memory/);
    const noted = (await engine.status()).lastErrors!.filter((e) => e.message.includes("CUDA out of memory"));
    expect(noted).toHaveLength(1);

    await fake.kill();
    await until(() => engine.servers()[0].health === "unreachable");
    // refused, or reset when the kill met a request in flight
    expect(engine.servers()[0].lastError).toMatch(/ECONNREFUSED|ECONNRESET|fetch failed/);
    await fake.restart();
    await until(() => engine.servers()[0].health === "healthy");
    expect(engine.servers()[0].lastError).toBeUndefined();
    // the outage stays in the engine's recent errors, with its time
    expect((await engine.status()).lastErrors!.some((e) => e.message.includes("unreachable"))).toBe(true);
  }, 20_000);
});
