import { describe, expect, it } from "vitest";
import { createNodeTimings, followPrompt, percentOf, promptSeen } from "./comfyui.progress.ts";
import type { SocketMessage } from "./comfyui.socket.ts";

/** A text-to-video run on a slow server, as comfyui.md §3 and §10 record the messages: load, encode, sample, decode, save. */
const NODES = ["load", "encode", "sample", "decode", "save"];
const msg = (type: string, data: Record<string, unknown>): SocketMessage => ({ type, data: { prompt_id: "p", ...data } });
const executing = (node: string | null) => msg("executing", { node, display_node: node });

/** Feeds one run, each node taking `ms[node]`, the sampler sending 4 steps; answers the timings it taught. */
function runOnce(ms: Record<string, number>) {
  const timings = createNodeTimings();
  const seen = promptSeen(NODES);
  let now = 0;
  const learn = (node: string, took: number) => timings.learn("gpu-1", "t2v", node, took);
  for (const node of NODES) {
    followPrompt(seen, executing(node), now, learn);
    if (node === "sample") for (let s = 1; s <= 4; s++) followPrompt(seen, msg("progress", { value: s, max: 4, node }), now + (ms[node] * s) / 4, learn);
    now += ms[node];
  }
  followPrompt(seen, msg("execution_success", {}), now, learn);
  expect(followPrompt(seen, executing(null), now, learn)).toBe(true);
  return timings;
}

describe("comfyui progress weighted by each node's time on the server", () => {
  const slow = { load: 10_000, encode: 50_000, sample: 30_000, decode: 9_000, save: 1_000 };

  it("learns what each node took, and moves through a 50 s text encode that sends no progress", () => {
    const timings = runOnce(slow);
    expect(timings.known("gpu-1", "t2v").get("encode")).toBe(50_000);
    // another server, or another workflow, has learnt nothing
    expect(timings.known("gpu-2", "t2v").size).toBe(0);

    const seen = promptSeen(NODES);
    const known = timings.known("gpu-1", "t2v");
    const noLearn = () => undefined;
    followPrompt(seen, executing("load"), 0, noLearn);
    followPrompt(seen, executing("encode"), 10_000, noLearn);
    const during = [10_000, 20_000, 35_000, 55_000].map((t) => percentOf(seen, known, t));
    expect(during).toEqual([9, 19, 33, 52]);
    // a node slower than before never looks finished
    expect(percentOf(seen, known, 500_000)).toBe(Math.floor((95 * (10_000 + 45_000)) / 100_000));
  });

  it("moves a sampler by its steps, counts cached nodes done, learns nothing from a failed node", () => {
    const timings = runOnce(slow);
    const known = timings.known("gpu-1", "t2v");
    const learnt: string[] = [];
    const seen = promptSeen(NODES);
    followPrompt(seen, msg("execution_cached", { nodes: ["load", "encode"] }), 0, (n) => learnt.push(n));
    followPrompt(seen, executing("sample"), 0, (n) => learnt.push(n));
    followPrompt(seen, msg("progress", { value: 2, max: 4, node: "sample" }), 1, (n) => learnt.push(n));
    expect(percentOf(seen, known, 1)).toBe(Math.floor((95 * (60_000 + 15_000)) / 100_000));
    followPrompt(seen, msg("execution_error", { node_id: "sample" }), 2, (n) => learnt.push(n));
    expect(learnt).toEqual([]);
  });

  it("counts nodes alike before the workflow first ran on the server", () => {
    const seen = promptSeen(NODES);
    for (const node of ["load", "encode", "sample"]) followPrompt(seen, executing(node), 0, () => undefined);
    expect(percentOf(seen, new Map(), 0)).toBe(38);
  });
});
