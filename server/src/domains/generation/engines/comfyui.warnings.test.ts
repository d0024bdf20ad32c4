import { describe, expect, it } from "vitest";
import { comfyPoolKit, until } from "../../../../../tests/comfyui-pool.ts";
import { silentLog, testConfig } from "../../../../../tests/db-utils.ts";
import { createEngines } from "./registry.ts";

/**
 * Issue 44 item 10: what ComfyUI's own users warn about (comfyui.md §14), each on the fake ComfyUI — a cancel never
 * stops another prompt, history is read only by id, a socket that goes quiet is re-opened, Reverie bounds what it
 * queues on one server, and each server's RAM and GPU memory are reported for the console.
 */
const kit = comfyPoolKit();

describe("what ComfyUI's users warn about", () => {
  it("a cancel interrupts only our prompt while it runs: on a ComfyUI that ignores the interrupt's body, another client's render goes on", async () => {
    const [fake] = await kit.fakes(1, { msPerStep: 60 });
    fake.state.bareInterrupt = true;
    // two Reverie processes (or Reverie and another client) on one server
    const other = kit.pool([fake.url]);
    const ours = kit.pool([fake.url]);
    const theirs = await other.submit(await kit.job({ prompt: "theirs" }));
    await until(() => !!fake.runningId(), "their prompt runs");
    const mine = await ours.submit(await kit.job({ prompt: "mine" }));
    await until(() => fake.recorded.prompts.length === 2, "ours waits behind it");
    await ours.cancel(mine);
    await until(() => fake.recorded.deletes.length === 1, "ours deleted from the queue");
    expect((await other.result(theirs)).width).toBe(1024);
    expect(fake.recorded.interrupts).toEqual([]);
    // theirs ran once, to its end: never interrupted and tried again
    expect(fake.recorded.runs).toHaveLength(1);
  }, 30_000);

  it("reads ComfyUI's history only by prompt id, never the whole of it", async () => {
    const [fake] = await kit.fakes(1, { msPerStep: 30 });
    const engine = kit.pool([fake.url]);
    await engine.result(await engine.submit(await kit.job({ prompt: "x" })));
    const cancelled = await engine.submit(await kit.job({ prompt: "y" }));
    await until(() => !!fake.runningId(), "running");
    await engine.cancel(cancelled);
    fake.dropSockets();
    await engine.result(await engine.submit(await kit.job({ prompt: "z" })));
    expect(fake.recorded.fullHistoryReads).toBe(0);
  }, 30_000);

  it("a socket that stays open but goes quiet is re-opened, and the job ends with its progress heard again", async () => {
    const [fake] = await kit.fakes(1, { msPerStep: 100 });
    const engine = kit.pool([fake.url], { socketQuietMs: 400 });
    const id = await engine.submit(await kit.job({ prompt: "x" }));
    await until(() => !!fake.runningId(), "running");
    fake.deafenSockets();
    const opened = fake.recorded.socketsOpened;
    await until(() => fake.recorded.socketsOpened > opened, "a new socket", 5_000);
    expect((await engine.result(id)).width).toBe(1024);
  }, 30_000);

  it("COMFYUI_PROMPTS_PER_SERVER bounds the prompts Reverie lets one server hold; the rest wait in Reverie's queue", async () => {
    const [one, two] = await kit.fakes(2, { msPerStep: 20 });
    for (const [fake, bound] of [
      [one, "1"],
      [two, "3"],
    ] as const) {
      const engines = createEngines(testConfig({ COMFYUI_URLS: fake.url, COMFYUI_PROMPTS_PER_SERVER: bound }), silentLog, 0);
      try {
        const comfy = engines.require("comfyui");
        const ids = await Promise.all(Array.from({ length: 4 }, async (_, i) => comfy.submit(await kit.job({ prompt: `p${i}`, seed: i }))));
        await Promise.all(ids.map((id) => comfy.result(id)));
        expect(fake.recorded.mostQueued).toBe(Number(bound));
      } finally {
        await engines.close();
      }
    }
  }, 60_000);

  it("reports each server's RAM and GPU memory from /system_stats, as they change over runs", async () => {
    const [fake] = await kit.fakes(1);
    fake.state.ramPerRun = 512 * 1024 ** 2;
    const engine = kit.pool([fake.url]);
    const before = (await engine.status()).servers![0].memory!;
    expect(before).toEqual({ ramTotal: 64 * 1024 ** 3, ramFree: 48 * 1024 ** 3, gpus: [{ name: "cuda:0 fake", vramTotal: 25e9, vramFree: 24e9 }] });
    await engine.result(await engine.submit(await kit.job({ prompt: "x" })));
    await until(() => engine.servers()[0].memory!.ramFree === before.ramFree - fake.state.ramPerRun, "the next round reads the smaller free RAM");
  }, 30_000);
});
