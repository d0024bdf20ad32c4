import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import { createComfyEngine } from "../server/src/domains/generation/engines/comfyui.engine.ts";
import type { EngineJob } from "../server/src/domains/generation/engines/engine.ts";
import { loadWorkflows } from "../server/src/domains/generation/engines/workflows.ts";
import { PROJECT_DIR } from "../server/src/paths.ts";
import type { BenchResult } from "./run.ts";

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
const log = pino({ level: "silent" });
const JOB_MS = 250;
const JOBS = 200;
const SERVERS = 4;

/** Starts `count` fake GPU servers in a child process; their URLs and a stop function. */
export async function fakeServers(count: number, fixedMs: number) {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(PROJECT_DIR, "bench", "fake-gpu-servers.ts"), String(count), String(fixedMs)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const urls = await new Promise<string[]>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) resolve(JSON.parse(out.split("\n")[0]) as string[]);
    });
    child.on("exit", (code) => reject(new Error(`fake servers exited with ${code}`)));
  });
  const runs = async () =>
    Promise.all(
      urls.map(async (u) =>
        ((await (await fetch(`${u}/__fake/runs`)).json()) as { prompt_id: string; startedAt: number; endedAt: number }[]).sort(
          (a, b) => a.startedAt - b.startedAt,
        ),
      ),
    );
  return { urls, runs, stop: () => new Promise((r) => (child.once("exit", r), child.kill("SIGTERM"))) };
}

/**
 * The comfyui pool's scheduling against 4 fake GPU servers that each take a fixed time per job (decision 081):
 * 200 text-to-image jobs submitted at once; makespan against the ideal (the servers' own busy time / 4), the longest
 * gap a server sat idle between prompts while jobs waited, and our overhead per job measured on an idle pool
 * (submit to stored result, less the server's own time).
 */
export default async function bench(): Promise<BenchResult[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "bench-pool-"));
  const workflows = loadWorkflows();
  let n = 0;
  const job = async (): Promise<EngineJob> => {
    const i = ++n;
    const workDir = path.join(dir, `j${i}`);
    await fs.mkdir(workDir);
    return {
      mode: "text_to_image",
      workflow: "sdxl-t2i",
      workDir,
      params: {},
      resolution: "480P",
      aspect: "1:1",
      durationSec: 0,
      count: 1,
      seed: i,
      prompt: "bench",
      key: `bench:${i}`,
    };
  };
  try {
    // ---- makespan: 200 jobs on 4 servers ----
    const fakes = await fakeServers(SERVERS, JOB_MS);
    const pool = createComfyEngine({ urls: fakes.urls, workflows, models: {}, healthMs: 1000, workflowCheckMs: 600_000, maxTries: 3, log });
    await pool.status();
    const jobs = await Promise.all(Array.from({ length: JOBS }, job));
    const t0 = performance.now();
    const ids = await Promise.all(jobs.map((j) => pool.submit(j)));
    await Promise.all(ids.map((id) => pool.result(id)));
    const makespan = performance.now() - t0;
    const runs = await fakes.runs();
    const busy = runs.flat().reduce((s, r) => s + (r.endedAt - r.startedAt), 0);
    const ideal = busy / SERVERS;
    const nominal = (JOBS * JOB_MS) / SERVERS;
    const lastStart = Math.max(...runs.flat().map((r) => r.startedAt));
    // idle gaps between a server's prompts while jobs were still waiting to start somewhere
    const gaps = runs.flatMap((rs) =>
      rs
        .slice(1)
        .filter((r) => r.startedAt <= lastStart)
        .map((r, i) => r.startedAt - rs[i].endedAt),
    );
    await pool.close!();
    await fakes.stop();

    // ---- overhead: one job at a time on an idle server ----
    const one = await fakeServers(1, 100);
    const solo = createComfyEngine({ urls: one.urls, workflows, models: {}, healthMs: 1000, workflowCheckMs: 600_000, maxTries: 1, log });
    await solo.status();
    const overheads: number[] = [];
    for (let i = 0; i < 50; i++) {
      const t = performance.now();
      const id = await solo.submit(await job());
      await solo.result(id);
      const total = performance.now() - t;
      const run = (await one.runs())[0].at(-1)!;
      overheads.push(total - (run.endedAt - run.startedAt));
    }
    await solo.close!();
    await one.stop();

    return [
      {
        name: `comfyui pool makespan, ${JOBS} jobs on ${SERVERS} fake servers (${JOB_MS} ms each), ÷ ideal (jobs × time / servers)`,
        value: makespan / nominal,
        unit: "× ideal",
        target: "≤ 1.1",
        pass: makespan / nominal <= 1.1,
        detail: { makespanMs: Math.round(makespan), idealMs: nominal, measuredBusyIdealMs: Math.round(ideal), perServer: runs.map((r) => r.length) },
      },
      {
        name: "longest idle gap of a server while jobs waited",
        value: Math.max(0, ...gaps),
        unit: "ms",
        target: "≤ 10 ms (no server idle while a job waits)",
        pass: Math.max(0, ...gaps) <= 10,
        detail: { gapsP50: percentile(gaps, 50), gapsP99: percentile(gaps, 99) },
      },
      {
        name: "comfyui engine overhead per job (submit to stored result, less the server's own time), p50",
        value: percentile(overheads, 50),
        unit: "ms",
        target: "≤ 50 ms",
        pass: percentile(overheads, 50) <= 50,
        detail: { p90: Math.round(percentile(overheads, 90)), max: Math.round(Math.max(...overheads)) },
      },
    ];
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
