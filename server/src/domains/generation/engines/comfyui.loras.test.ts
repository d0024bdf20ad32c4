import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { silentLog } from "../../../../../tests/db-utils.ts";
import { startFakeComfy, type FakeComfy, type FakeComfyOptions } from "../../../../../tests/fixtures/fake-comfyui.ts";
import { loraSafetensors } from "../../../../../tests/fixtures/lora-files.ts";
import { startLoraHost, type LoraHost } from "../../../../../tests/fixtures/lora-host.ts";
import { mediaDir } from "../../../../../tests/fixtures/media.ts";
import { createComfyEngine } from "./comfyui.engine.ts";
import type { EngineJob, EngineLora } from "./engine.ts";
import { CHARACTER_NODES } from "./lora-links.ts";
import { bindWorkflow, loadWorkflows } from "./workflows.ts";

/**
 * A person's character model on the ComfyUI pool (issue 44 item 1, decision 330): the prompt names it by hash and a
 * link signed for the server; the fake runs Reverie's node as gpu/comfyui-reverie does (fetch once, check the hash,
 * LRU-bounded cache) and refuses a bare LoRA name it does not list, as ComfyUI does.
 */
const workflows = loadWorkflows();
let media: Awaited<ReturnType<typeof mediaDir>>;
let host: LoraHost;
let cleanups: (() => Promise<unknown>)[] = [];
beforeAll(async () => {
  media = await mediaDir();
  host = await startLoraHost();
});
afterAll(async () => {
  await host.close();
  await media.cleanup();
});
afterEach(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
  cleanups = [];
});

async function fake(opts: FakeComfyOptions = {}): Promise<FakeComfy> {
  const f = await startFakeComfy({ msPerStep: 2, ...opts });
  cleanups.push(() => f.close());
  return f;
}
function pool(urls: string[]) {
  const engine = createComfyEngine({ urls, workflows, models: {}, healthMs: 200, workflowCheckMs: 60_000, maxTries: 2, loraLinks: host.links, log: silentLog });
  cleanups.push(() => engine.close!());
  return engine;
}
let n = 0;
async function job(over: Partial<EngineJob> = {}): Promise<EngineJob> {
  const id = ++n;
  const workDir = path.join(media.dir, `job-${id}`);
  await fs.mkdir(workDir);
  return {
    mode: "text_to_image",
    workDir,
    prompt: "a lighthouse",
    params: {},
    resolution: "480P",
    durationSec: 1,
    count: 1,
    seed: id,
    key: `lora:${id}`,
    ...over,
  };
}
/** A character model trained on SDXL, the family of the text-to-image workflow these run (decision 395). */
const sdxl = (width: number) => loraSafetensors(4, width, "sdxl");
const character = (bytes = sdxl(64 + n)): EngineLora => ({
  path: `u/1/models/${n}.safetensors`,
  sha256: host.add(bytes),
  triggerWord: "rvalice",
  strength: 0.7,
  baseModel: "stabilityai/stable-diffusion-xl-base-1.0",
});
type Posted = Record<string, { class_type: string; inputs: Record<string, unknown> }>;

describe("character models on the ComfyUI pool", () => {
  it("runs two people at once, one with a trained character and one without; the second use is served from the cache", async () => {
    const f = await fake();
    const engine = pool([f.url]);
    const lora = character();
    const [alice, bob] = await Promise.all([job({ lora, prompt: "on a beach" }), job({ prompt: "on a beach" })]);
    const [ra, rb] = await Promise.all([engine.submit(alice), engine.submit(bob)]).then((ids) => Promise.all(ids.map((id) => engine.result(id))));
    expect([ra.width, rb.width]).toEqual([1024, 1024]);
    const [pa, pb] = [0, 1].map((i) => f.recorded.prompts[i].prompt as Posted);
    const withLora = [pa, pb].find((p) => JSON.stringify(p).includes("rvalice"))!;
    const without = pa === withLora ? pb : pa;
    // Alice's: Reverie's loader where the stock one was, with her file's hash and a link signed for this server
    const loader = Object.values(withLora).find((x) => x.class_type === "ReverieLoraLoader")!;
    expect(loader.inputs).toMatchObject({ sha256: lora.sha256, strength_model: 0.7, strength_clip: 0.7 });
    expect(new URL(String(loader.inputs.url)).searchParams.get("server")).toBe(f.url);
    // Bob's: no loader of any kind, and nothing of Alice's
    expect(Object.values(without).some((x) => /Lora/.test(x.class_type))).toBe(false);
    expect(JSON.stringify(without)).not.toContain(lora.sha256);
    expect(f.recorded.loraFetches.map((x) => [x.sha256, x.status])).toEqual([[lora.sha256, 200]]);
    // an SDXL character on SDXL: ComfyUI loads every one of its keys
    expect(f.recorded.log).toEqual([]);

    // her next render on that server: a new link, the same file, not fetched again
    await engine.result(await engine.submit(await job({ lora })));
    expect(f.recorded.loraFetches).toHaveLength(1);
    expect([...f.cachedLoras().keys()]).toEqual([lora.sha256]);
  }, 60_000);

  it("sends a character model only to a server with Reverie's node; ComfyUI refuses a bare LoRA name it does not list", async () => {
    const bare = await fake({ missingNodes: CHARACTER_NODES });
    const ready = await fake();
    const engine = pool([bare.url, ready.url]);
    for (let i = 0; i < 3; i++) await engine.result(await engine.submit(await job({ lora: character() })));
    expect(bare.recorded.prompts).toHaveLength(0);
    expect(ready.recorded.prompts).toHaveLength(3);
    expect(engine.servers().find((s) => s.url === bare.url)?.characterModels).toBe(false);
    expect(engine.servers().find((s) => s.url === ready.url)?.characterModels).toBe(true);

    // what Reverie sent before decision 330, as ComfyUI 0.3.64 answers it (comfyui.md §8)
    const graph = structuredClone(workflows.find((w) => w.name === "sdxl-t2i")!.graph) as Posted;
    graph["2"].inputs.lora_name = "alice_lora_v1.safetensors";
    const res = await fetch(`${bare.url}/prompt`, { method: "POST", body: JSON.stringify({ prompt: graph }) });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { node_errors: Record<string, { class_type: string; errors: { type: string; details: string }[] }> };
    expect(body.node_errors["2"]).toMatchObject({ class_type: "LoraLoader", errors: [{ type: "value_not_in_list" }] });
    expect(body.node_errors["2"].errors[0].details).toContain("lora_name: 'alice_lora_v1.safetensors' not in");

    // a pool where no server has the node says so, rather than sending it to fail there
    const only = pool([bare.url]);
    await expect(only.result(await only.submit(await job({ lora: character() })))).rejects.toThrow(/lacks Reverie's LoRA node/);
  }, 60_000);

  it("fetches again, transparently, a file its bounded cache let go of", async () => {
    const a = sdxl(300);
    const f = await fake({ loraCacheBytes: Math.floor(a.length * 1.5) });
    const engine = pool([f.url]);
    const [la, lb] = [character(a), character(sdxl(301))];
    for (const lora of [la, lb, la]) await engine.result(await engine.submit(await job({ lora })));
    expect(f.recorded.loraFetches.map((x) => x.sha256)).toEqual([la.sha256, lb.sha256, la.sha256]);
    expect([...f.cachedLoras().keys()]).toEqual([la.sha256]);
  }, 60_000);

  it("fails a job whose file is not the one named, or whose link no longer works, and caches nothing", async () => {
    const f = await fake();
    const engine = pool([f.url]);
    const tampered = character();
    host.corrupt(tampered.sha256, sdxl(999));
    await expect(engine.result(await engine.submit(await job({ lora: tampered })))).rejects.toThrow(/SHA-256 mismatch/);
    const removed = character();
    host.remove(removed.sha256);
    const g = await fake();
    const other = pool([g.url]);
    await expect(other.result(await other.submit(await job({ lora: removed })))).rejects.toThrow(/could not be fetched: HTTP 404/);
    expect([...f.cachedLoras().keys(), ...g.cachedLoras().keys()]).toEqual([]);
  }, 60_000);

  it("a character model of another family loads no key, which ComfyUI only logs: the pool runs it on its own family only (decision 395)", async () => {
    const f = await fake();
    const weights = loraSafetensors(4, 77);
    const flux: EngineLora = {
      path: "u/1/models/flux.safetensors",
      sha256: host.add(weights),
      triggerWord: "rvflux",
      strength: 1,
      baseModel: "black-forest-labs/FLUX.1-dev",
    };
    // sent by hand to SDXL, as workflow choice did before: ComfyUI runs it, loads none of its keys, and succeeds
    const sdxlT2i = workflows.find((w) => w.name === "sdxl-t2i")!;
    const { prompt } = await bindWorkflow(sdxlT2i, await job({ lora: flux }), { models: {}, prefix: "reverie/by-hand", server: f.url, links: host.links });
    const queued = (await (await fetch(`${f.url}/prompt`, { method: "POST", body: JSON.stringify({ prompt }) })).json()) as { prompt_id: string };
    let entry: { status?: { status_str: string } } | undefined;
    for (let i = 0; i < 100 && !entry?.status; i++) {
      await new Promise((r) => setTimeout(r, 50));
      entry = ((await (await fetch(`${f.url}/history/${queued.prompt_id}`)).json()) as Record<string, typeof entry>)[queued.prompt_id];
    }
    expect(entry?.status?.status_str).toBe("success");
    expect(f.recorded.log).toEqual([
      "lora key not loaded: transformer.single_transformer_blocks.0.attn.to_q.lora_A.weight",
      "lora key not loaded: transformer.single_transformer_blocks.0.attn.to_q.lora_B.weight",
    ]);
    // the pool never sends it there: pinned, it is refused; else it runs FLUX, which loads every key
    const engine = pool([f.url]);
    await expect(engine.submit(await job({ lora: flux, workflow: "sdxl-t2i" }))).rejects.toThrow(
      "workflow sdxl-t2i takes character models trained on sdxl, not on flux",
    );
    const logged = f.recorded.log.length;
    await engine.result(await engine.submit(await job({ lora: flux })));
    expect(
      Object.values(f.recorded.prompts.at(-1)!.prompt)
        .map((n) => n.inputs?.unet_name ?? n.inputs?.ckpt_name)
        .filter(Boolean),
    ).toEqual(["flux1-dev.safetensors"]);
    expect(f.recorded.log.slice(logged)).toEqual([]);
  }, 60_000);
});
