import fs from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { comfyPoolKit, until } from "../../../../../tests/comfyui-pool.ts";
import type { FakeComfy } from "../../../../../tests/fixtures/fake-comfyui.ts";

/**
 * Issue 44 item 7: nothing of a person stays on a GPU server, whatever the end of the prompt Reverie posted there —
 * success, failure, refusal, cancel, time-out, stranded on a server that went away. Its history entry (the prompt
 * text, the names of the person's files) is deleted, and through Reverie's node the photo it uploaded into ComfyUI's
 * input/ folder (decision 376) and the pictures and clips ComfyUI saved into its output/ folder, once they are home or
 * when the prompt ended without them being fetched (decision 393).
 */
const kit = comfyPoolKit();

/** The server holds no history entry, no input file and no output file: what it ran has left nothing of the person. */
const nothingLeft = (fake: FakeComfy, what: string) =>
  until(() => fake.history.size === 0 && fake.inputNames().length === 0 && fake.outputNames().length === 0, `${what}: nothing left`);

describe("what Reverie posted leaves nothing on the GPU server, however it ends", () => {
  it("a success: its history entry, the uploaded photo and the saved picture are deleted once the outputs are home", async () => {
    const [fake] = await kit.fakes(1);
    const engine = kit.pool([fake.url]);
    const result = await engine.result(await engine.submit(await kit.job({ prompt: "as a painting", image: kit.image, strength: 0.4 })));
    const id = fake.recorded.prompts[0].prompt_id;
    expect(fake.recorded.uploads).toEqual([`reverie-${id}.jpg`]);
    await nothingLeft(fake, "success");
    expect(fake.recorded.inputDeletes).toEqual([`reverie-${id}.jpg`]);
    // what ComfyUI saved under the prompt's own prefix, deleted after it was brought home
    expect(fake.recorded.outputDeletes).toEqual([`reverie/${id}_00001_.png`]);
    expect((await fs.stat(result.main.path)).size).toBeGreaterThan(0);
  }, 30_000);

  it("a clip and its poster: both files the server saved are deleted, the clip stored as the server made it", async () => {
    const [fake] = await kit.fakes(1);
    const engine = kit.pool([fake.url]);
    const job = await kit.job({ mode: "image_to_video", workflow: "ltxv-i2v", prompt: "she smiles", image: kit.image });
    const result = await engine.result(await engine.submit(job));
    const id = fake.recorded.prompts[0].prompt_id;
    await nothingLeft(fake, "clip");
    expect(fake.recorded.outputDeletes.sort()).toEqual([`reverie/${id}_00001_.mp4`, `reverie/${id}_00002_.png`]);
    expect(await fs.readFile(result.main.path)).toEqual(await fs.readFile(fake.recorded.outputs.at(-1)!));
  }, 30_000);

  it("a failure on the server and a refusal before it ran", async () => {
    const [fake] = await kit.fakes(1);
    const engine = kit.pool([fake.url], { maxTries: 1 });
    fake.state.failNext = 1;
    await expect(engine.result(await engine.submit(await kit.job({ prompt: "x", image: kit.image, strength: 0.4 })))).rejects.toThrow(/out of memory/);
    await nothingLeft(fake, "failure");
    fake.removeModel("checkpoints", "sd_xl_base_1.0.safetensors");
    await expect(engine.result(await engine.submit(await kit.job({ prompt: "y", image: kit.image, strength: 0.4 })))).rejects.toThrow(/value_not_in_list/);
    expect(fake.recorded.uploads).toHaveLength(2);
    await nothingLeft(fake, "refusal");
  }, 30_000);

  it("a cancel while it runs, a time-out while a node that ignores interrupts runs, a cancel while it waits in ComfyUI's queue", async () => {
    const [fake] = await kit.fakes(1, { msPerStep: 100 });
    const engine = kit.pool([fake.url]);
    const running = await engine.submit(await kit.job({ prompt: "x", image: kit.image, strength: 0.4 }));
    const waiting = await engine.submit(await kit.job({ prompt: "y", image: kit.image, strength: 0.4 }));
    await until(() => fake.recorded.prompts.length === 2 && !!fake.runningId(), "both queued, one running");
    await engine.cancel(waiting);
    await engine.cancel(running);
    await expect(engine.result(running)).rejects.toThrow(/cancelled/);
    await nothingLeft(fake, "cancels");
    // a node that does not check for an interrupt (comfyui.md §14; the photo's, as the model load is cached by now):
    // the history is written only when it has ended
    fake.state.msPerNode = { LoadImage: 1500 };
    const slow = await engine.submit(await kit.job({ prompt: "z", image: kit.image, strength: 0.4 }));
    await until(() => fake.runningClass() === "LoadImage", "the photo's node runs");
    await engine.cancel(slow, "timed out after 5 s");
    await expect(engine.result(slow)).rejects.toThrow(/^timed out after 5 s/);
    await until(() => fake.queueLength() === 0, "the stopped prompt ended");
    await nothingLeft(fake, "time-out");
    expect(fake.recorded.historyDeletes).toEqual(expect.arrayContaining(fake.recorded.prompts.map((p) => p.prompt_id)));
  }, 30_000);

  it("a time-out after the clip was saved: the file never fetched is deleted once the prompt has ended", async () => {
    const [fake] = await kit.fakes(1, { msPerStep: 1, msPerNode: { SaveVideo: 1500 } });
    const engine = kit.pool([fake.url]);
    const id = await engine.submit(await kit.job({ mode: "image_to_video", workflow: "ltxv-i2v", prompt: "x", image: kit.image }));
    await until(() => fake.runningClass() === "SaveVideo", "the clip is being saved");
    await engine.cancel(id, "timed out after 5 s");
    await expect(engine.result(id)).rejects.toThrow(/^timed out after 5 s/);
    await until(() => fake.queueLength() === 0, "the stopped prompt ended");
    // it wrote the clip before the interrupt took effect, at the poster's node
    const promptId = fake.recorded.prompts[0].prompt_id;
    expect(fake.recorded.outputs).toHaveLength(1);
    await nothingLeft(fake, "time-out after the save");
    expect(fake.recorded.outputDeletes).toEqual([`reverie/${promptId}_00001_.mp4`]);
  }, 30_000);

  it("stranded: a server cut off mid-run finishes the prompt meanwhile; once it answers again, what it kept is deleted", async () => {
    const [a, b] = await kit.fakes(2, { msPerStep: 60 });
    const engine = kit.pool([a.url, b.url]);
    const id = await engine.submit(await kit.job({ prompt: "x", image: kit.image, strength: 0.4 }));
    await until(() => !!a.runningId() || !!b.runningId(), "running");
    const [cut, other] = a.runningId() ? [a, b] : [b, a];
    await cut.unplug();
    expect((await engine.result(id)).width).toBe(1344);
    await nothingLeft(other, "the server that finished the job");
    // the cut-off server ran the prompt to its end and kept its history and the photo
    await until(() => cut.history.size === 1, "the stranded prompt ended there");
    expect([cut.inputNames(), cut.outputNames()].map((l) => l.length)).toEqual([1, 1]);
    await cut.plugIn();
    await nothingLeft(cut, "stranded");
  }, 30_000);
});
