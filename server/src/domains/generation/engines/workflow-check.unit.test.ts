import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ASPECT_RATIOS, CAMERA_MOVES, type AspectRatio, type CameraMove } from "../../../contract/engines.ts";
import { PROJECT_DIR } from "../../../paths.ts";
import { MAX_DURATION_SEC } from "../generation.schema.ts";
import { type EngineJob, UnrunnableError } from "./engine.ts";
import { ffmpeg } from "../../../storage/media-tools.ts";
import { chainWindows } from "./animate-chain.ts";
import { loraLinks } from "./lora-links.ts";
import { graphProblems } from "./workflow-check.ts";
import { chooseWorkflow } from "./workflow-choice.ts";
import { bindWorkflow, loadWorkflows, modelFile, type ObjectInfo, type Workflow } from "./workflows.ts";

/**
 * Every shipped workflow, bound as the engine binds it for every resolution, aspect, source shape, length and batch
 * size a request can ask for, with and without a LoRA, checked against ComfyUI 0.3.64's stock node catalogue:
 * tests/fixtures/comfyui/comfyui-object_info-0.3.64.json.gz, a copy of /work/shared/protocols' recording (comfyui.md
 * §15; provenance in tests/fixtures/comfyui/README.md), kept in the repo so a clean clone runs this.
 */
const CATALOGUE = path.join(PROJECT_DIR, "tests", "fixtures", "comfyui", "comfyui-object_info-0.3.64.json.gz");
/** With Reverie's own LoRA nodes (gpu/comfyui-reverie, decision 330), which a GPU server's setup installs. */
const stock = {
  ...(JSON.parse(zlib.gunzipSync(fs.readFileSync(CATALOGUE)).toString("utf8")) as ObjectInfo),
  ...(JSON.parse(fs.readFileSync(path.join(PROJECT_DIR, "tests", "fixtures", "comfyui", "reverie-nodes.json"), "utf8")) as ObjectInfo),
};
const workflows = loadWorkflows();
const UPLOADED = { image: "reverie-source.png", endImage: "reverie-source-end.png", video: "reverie-source.mp4", audio: "reverie-source-audio.m4a" };
const LINKS = loraLinks("workflow-check-secret", "https://reverie.example", 600);
const LORA = {
  path: "lora/character.safetensors",
  sha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
  triggerWord: "rvr",
  strength: 0.8,
  baseModel: null,
};

/**
 * The catalogue was recorded without model files or uploads, so its file lists are empty (§15): fill the inputs the
 * binding sets to a file with the names a configured server would list.
 */
function catalogueFor(wf: Workflow): ObjectInfo {
  const info = structuredClone(stock);
  const allow = (node: string, input: string, name: string) => {
    const cls = info[wf.graph[node].class_type];
    const spec = (cls.input?.required?.[input] ?? cls.input?.optional?.[input]) as unknown[];
    if (Array.isArray(spec[0])) spec[0].push(name);
    else ((spec[1] as { options: string[] }).options ??= []).push(name);
  };
  for (const [slot, t] of Object.entries(wf.binding.models)) allow(t.node, t.input, modelFile(wf, slot, {}));
  for (const [need, file] of [
    ["image", UPLOADED.image],
    ["end_image", UPLOADED.endImage],
    ["video", UPLOADED.video],
    ["audio", UPLOADED.audio],
  ] as const)
    for (const t of wf.binding.inputs[need] ?? []) allow(t.node, t.input, file);
  return info;
}

/** Every length a request of 1..MAX_DURATION_SEC seconds turns into: one duration per frame count the binding makes. */
function durations(wf: Workflow): number[] {
  const fps = wf.binding.fps ?? 24;
  const step = wf.binding.frames?.step ?? 1;
  if (!wf.binding.inputs.frames) return [1];
  // a clip chained from windows: the lengths either side of each window's end (every other length binds alike)
  const w = wf.binding.windows;
  if (w) return Array.from({ length: Math.ceil((MAX_DURATION_SEC * fps) / w.frames) }, (_, k) => [(k * w.frames + 1) / fps, ((k + 1) * w.frames) / fps]).flat();
  const out: number[] = [];
  for (let k = Math.ceil(fps / step); k <= Math.ceil((MAX_DURATION_SEC * fps) / step); k++) out.push(Math.min(MAX_DURATION_SEC, (k * step) / fps));
  return out;
}

let dir: string;
const sources: Record<string, string> = {};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "reverie-workflow-check-"));
  // the widest and tallest source shapes a person may upload, besides none
  for (const [name, w, h] of [
    ["wide", 960, 300],
    ["tall", 300, 960],
  ] as const) {
    sources[name] = path.join(dir, `${name}.png`);
    await sharp({ create: { width: w, height: h, channels: 3, background: "#888" } })
      .png()
      .toFile(sources[name]);
  }
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A 5 s image-to-video job at 480P, with what `o` adds. */
const jobOf = (o: Partial<EngineJob> = {}): EngineJob => ({
  mode: "image_to_video",
  workDir: dir,
  params: {},
  resolution: "480P",
  durationSec: 5,
  count: 1,
  seed: 7,
  key: "k",
  ...o,
});

describe("shipped workflows against ComfyUI 0.3.64's stock nodes", () => {
  it("covers every workflow in server/workflows", () => {
    expect(workflows.map((w) => w.name).sort()).toEqual(
      fs
        .readdirSync(path.join(PROJECT_DIR, "server", "workflows"))
        .filter((f) => !f.endsWith(".binding.json"))
        .map((f) => f.replace(/\.json$/, ""))
        .sort(),
    );
  });

  it.each(workflows.map((w) => [w.name, w] as const))("%s binds to prompts ComfyUI accepts", async (_name, wf) => {
    const info = catalogueFor(wf);
    const problems = new Set<string>();
    const shapes: { aspect?: AspectRatio; image?: string }[] = [
      {},
      ...ASPECT_RATIOS.map((aspect) => ({ aspect })),
      { image: sources.wide },
      { image: sources.tall },
    ];
    let bound = 0;
    // a camera workflow is bound with one move here; every move is checked below
    for (const resolution of ["480P", "720P"] as const)
      for (const shape of shapes)
        for (const durationSec of durations(wf))
          for (const count of wf.binding.modes.includes("image_batch") ? [1, 2, 3, 4] : [1])
            for (const lora of [undefined, LORA])
              for (const camera of wf.binding.needs.includes("camera") ? (["zoom_in"] as const) : [undefined]) {
                const job: EngineJob = {
                  mode: wf.binding.modes.includes("image_batch") && count > 1 ? "image_batch" : wf.binding.modes[0],
                  workDir: dir,
                  params: {},
                  resolution,
                  durationSec,
                  count,
                  seed: 2 ** 31 - 1,
                  strength: 0.6,
                  prompt: "a lighthouse at dusk",
                  negativePrompt: "blurry",
                  key: "check",
                  lora,
                  camera: camera as CameraMove | undefined,
                  ...shape,
                };
                const { prompt } = await bindWorkflow(wf, job, {
                  ...UPLOADED,
                  models: {},
                  prefix: "reverie/check",
                  server: "http://gpu:8188",
                  links: LINKS,
                });
                for (const p of graphProblems(prompt, info)) problems.add(`${resolution} ${JSON.stringify(shape)} ${durationSec}s ×${count} ${camera}: ${p}`);
                bound++;
              }
    expect([...problems].slice(0, 20)).toEqual([]);
    expect(bound).toBeGreaterThan(0);
  });

  it("finds what ComfyUI would refuse", () => {
    const wf = workflows.find((w) => w.name === "sdxl-t2i")!;
    const prompt = structuredClone(wf.graph);
    prompt["5"].inputs.width = 8;
    prompt["6"].inputs.sampler_name = "no-such-sampler";
    prompt["6"].inputs.model = ["5", 0];
    prompt["8"].inputs.filename_prefixx = "x";
    prompt["99"] = { class_type: "NoSuchNode", inputs: {} };
    expect(graphProblems(prompt, catalogueFor(wf))).toEqual(
      expect.arrayContaining([
        "node 5 (EmptyLatentImage).width: 8 is below its min 16",
        'node 6 (KSampler).sampler_name: "no-such-sampler" is not one of its options',
        "node 6 (KSampler).model: takes MODEL, linked to LATENT from node 5",
        "node 8 (SaveImage).filename_prefixx: no such input",
        "node 99 (NoSuchNode): no such node class",
      ]),
    );
  });
});

describe("a transition and camera moves (issue 33)", () => {
  const byName = (name: string) => workflows.find((w) => w.name === name)!;
  const all = () => true;
  const job = (o: Partial<EngineJob> = {}) => jobOf({ image: sources.wide, ...o });

  it("the transition takes the first photo as its first frame and the second as its last", async () => {
    const wf = byName("wan22-flf2v-14b");
    const { prompt } = await bindWorkflow(wf, job({ endImage: sources.tall }), { ...UPLOADED, models: {}, prefix: "p" });
    const flf = Object.values(prompt).find((n) => n.class_type === "WanFirstLastFrameToVideo")!;
    const loaded = (link: unknown) => prompt[(link as [string, number])[0]].inputs.image;
    expect([loaded(flf.inputs.start_image), loaded(flf.inputs.end_image)]).toEqual([UPLOADED.image, UPLOADED.endImage]);
  });

  it("each camera move becomes a stock camera pose, its size and length fed to the video node by link", async () => {
    const wf = byName("wan22-fun-camera-14b");
    const info = catalogueFor(wf);
    const poses = new Set<unknown>();
    for (const camera of CAMERA_MOVES) {
      const { prompt, width, height } = await bindWorkflow(wf, job({ camera }), { ...UPLOADED, models: {}, prefix: "p" });
      expect(graphProblems(prompt, info)).toEqual([]);
      const embedding = Object.values(prompt).find((n) => n.class_type === "WanCameraEmbedding")!;
      expect([embedding.inputs.width, embedding.inputs.height, embedding.inputs.length]).toEqual([width, height, 81]);
      poses.add(embedding.inputs.camera_pose);
    }
    expect(poses.size).toBe(CAMERA_MOVES.length);
  });

  it("a second photo or a camera move picks the workflow that needs it; none is ever dropped", () => {
    expect(chooseWorkflow(workflows, job({ endImage: "b.png" }), all).name).toBe("wan22-flf2v-14b");
    expect(chooseWorkflow(workflows, job({ camera: "zoom_in" }), all).name).toBe("wan22-fun-camera-14b");
    // neither is picked for a plain photo video
    expect(chooseWorkflow(workflows, job(), all).binding.needs).toEqual(["image"]);
    // no workflow takes both at once
    expect(() => chooseWorkflow(workflows, job({ endImage: "b.png", camera: "pan_left" }), all)).toThrow(/with a last frame with a camera move/);
    // a template's workflow that cannot take what the request brings, or needs what it lacks
    expect(() => chooseWorkflow(workflows, job({ workflow: "wan22-i2v-14b", camera: "pan_left" }), all)).toThrow(UnrunnableError);
    expect(() => chooseWorkflow(workflows, job({ workflow: "wan22-fun-camera-14b" }), all)).toThrow(/needs a camera move/);
    expect(chooseWorkflow(workflows, job({ workflow: "wan22-fun-camera-14b", camera: "pan_left" }), all).name).toBe("wan22-fun-camera-14b");
  });

  it("ComfyUI would refuse a camera pose it does not know", async () => {
    const wf = byName("wan22-fun-camera-14b");
    const { prompt } = await bindWorkflow(wf, job({ camera: "zoom_out" }), { ...UPLOADED, models: {}, prefix: "p" });
    prompt["18"].inputs.camera_pose = "Orbit";
    expect(graphProblems(prompt, catalogueFor(wf))).toEqual(['node 18 (WanCameraEmbedding).camera_pose: "Orbit" is not one of its options']);
  });
});

describe("motion copied from a video (issue 33, decision 306)", () => {
  const wf = workflows.find((w) => w.name === "wan22-animate-14b")!;
  const all = () => true;
  const motion = (o: Partial<EngineJob> = {}): EngineJob => ({
    mode: "video_to_video",
    workDir: dir,
    params: {},
    resolution: "480P",
    durationSec: 4,
    count: 1,
    seed: 7,
    key: "k",
    image: sources.tall,
    video: "reference.mp4",
    ...o,
  });

  it("a photo with the video picks Wan Animate; a video alone is restyled; a pinned workflow never drops or lacks the photo", () => {
    expect(chooseWorkflow(workflows, motion(), all).name).toBe("wan22-animate-14b");
    expect(chooseWorkflow(workflows, motion({ image: undefined }), all).name).toBe("sdxl-v2v");
    expect(() => chooseWorkflow(workflows, motion({ workflow: "sdxl-v2v" }), all)).toThrow(/takes no photo to move/);
    expect(() => chooseWorkflow(workflows, motion({ workflow: wf.name, image: undefined }), all)).toThrow(/needs a photo to move/);
  });

  it("chains as many windows as every length at every frame rate needs, each prompt one ComfyUI accepts", async () => {
    const info = catalogueFor(wf);
    const animate = wf.binding.chain!;
    for (const fps of [8, 15, 16, 24, 30, 60])
      for (let durationSec = 4; durationSec <= MAX_DURATION_SEC; durationSec += 0.5) {
        const { prompt } = await bindWorkflow(wf, motion({ video: undefined }), { ...UPLOADED, models: {}, prefix: "p" });
        const { total, windows } = await chainWindows(prompt, { ...animate, fps }, { durationSec });
        expect(graphProblems(prompt, info)).toEqual([]);
        const made = animate.clip + (windows - 1) * (animate.clip - 5);
        // enough frames, and no window more than it takes
        expect(made >= total && made - (animate.clip - 5) < total).toBe(true);
        expect(Object.values(prompt).filter((n) => n.class_type === "WanAnimateToVideo")).toHaveLength(windows);
        expect(prompt[animate.cut].inputs.length).toBe(Math.round(durationSec * fps));
      }
  });

  it("each window goes on from the one before, and the clip plays at the reference video's own frame rate", async () => {
    const file = path.join(dir, "reference.mp4");
    await ffmpeg(["-f", "lavfi", "-i", "testsrc=size=64x64:rate=30:duration=1", "-c:v", "libx264", "-preset", "ultrafast", file]);
    const { prompt } = await bindWorkflow(wf, motion({ video: file, durationSec: 10 }), { ...UPLOADED, models: {}, prefix: "p" });
    // 300 frames: 77, then 72 new ones a window
    expect(prompt["18"].inputs).toMatchObject({ length: 300, image: ["join:4", 0] });
    expect(prompt["13:2"].inputs).toMatchObject({ continue_motion: ["16:1", 0], video_frame_offset: ["13:1", 5], reference_image: ["8", 0] });
    expect(prompt["14:2"].inputs).toMatchObject({ latent_image: ["13:2", 2], seed: 7 });
    expect(prompt["19"].inputs.fps).toEqual(["11", 2]);
    const loaded = (link: unknown) => prompt[(link as [string, number])[0]].inputs;
    expect([loaded(prompt["13"].inputs.reference_image).image, loaded(loaded(loaded(prompt["13"].inputs.pose_video).image).video).file]).toEqual([
      UPLOADED.image,
      UPLOADED.video,
    ]);
  });
});

describe("a photo that speaks or sings to its audio (issue 33, decision 305)", () => {
  const wf = workflows.find((w) => w.name === "wan22-s2v-14b")!;
  const all = () => true;
  const job = (durationSec: number, o: Partial<EngineJob> = {}): EngineJob => ({
    mode: "audio_overlay",
    workDir: dir,
    params: {},
    resolution: "480P",
    durationSec,
    count: 1,
    seed: 11,
    key: "k",
    image: sources.wide,
    audio: "a.m4a",
    ...o,
  });
  const bind = async (durationSec: number) => (await bindWorkflow(wf, job(durationSec), { ...UPLOADED, models: {}, prefix: "p" })).prompt;
  const ofClass = (prompt: Record<string, { class_type: string }>, cls: string) => Object.keys(prompt).filter((id) => prompt[id].class_type === cls);

  it("audio overlay runs the sound-driven workflow on a GPU engine, and only audio overlay does", () => {
    expect(chooseWorkflow(workflows, job(5), all).name).toBe("wan22-s2v-14b");
    expect(wf.binding.modes).toEqual(["audio_overlay"]);
    // no other workflow lays the audio under motion any more: where the sound-driven one is not offered, none runs (an
    // upscale of a finished audio overlay is a follow-up, never picked for a request: decision 307)
    expect(workflows.filter((w) => !w.binding.followUp && w.binding.modes.includes("audio_overlay")).map((w) => w.name)).toEqual(["wan22-s2v-14b"]);
    // a photo video with a sound track (a role video's) does not pick it
    expect(chooseWorkflow(workflows, job(5, { mode: "image_to_video" }), all).binding.needs).toEqual(["image"]);
    expect(() => chooseWorkflow(workflows, job(5, { audio: undefined }), all)).toThrow(/no workflow makes audio_overlay/);
  });

  it("one window for a clip it covers, with no continuation node left behind", async () => {
    const prompt = await bind(5);
    expect(graphProblems(prompt, catalogueFor(wf))).toEqual([]);
    expect(ofClass(prompt, "WanSoundImageToVideoExtend")).toEqual([]);
    const cut = prompt[ofClass(prompt, "LatentCut")[0]];
    // the finished clip is the first window's sampled latent
    expect(cut.inputs.samples).toEqual(["12", 0]);
    expect(prompt[ofClass(prompt, "ImageFromBatch")[0]].inputs).toMatchObject({ batch_index: 1, length: 80 });
    expect(prompt[ofClass(prompt, "LoadAudio")[0]].inputs.audio).toBe(UPLOADED.audio);
    // the video is saved with the audio it was made from
    const create = prompt[ofClass(prompt, "CreateVideo")[0]];
    expect([prompt[(create.inputs.audio as [string, number])[0]].class_type, create.inputs.fps]).toEqual(["LoadAudio", 16]);
  });

  it("a 30 s clip chains six windows in one prompt, each continuing the clip so far, cut to the audio's frames", async () => {
    const prompt = await bind(30);
    expect(graphProblems(prompt, catalogueFor(wf))).toEqual([]);
    const extends_ = ofClass(prompt, "WanSoundImageToVideoExtend");
    expect(extends_).toHaveLength(5);
    // walk the chain back from what the decode reads: each window's concat joins the clip before it and its own samples
    const link = (id: string, input: string) => (prompt[id].inputs[input] as [string, number])[0];
    let clip = link(ofClass(prompt, "LatentCut")[0], "samples");
    const seen: string[] = [];
    while (prompt[clip].class_type === "LatentConcat") {
      const sampler = link(clip, "samples2");
      const extend = link(sampler, "latent_image");
      expect(prompt[extend].class_type).toBe("WanSoundImageToVideoExtend");
      // the window continues exactly the clip its concat extends
      expect(link(extend, "video_latent")).toBe(link(clip, "samples1"));
      expect(prompt[sampler].inputs.seed).toBe(11);
      seen.push(extend);
      clip = link(clip, "samples1");
    }
    expect(seen.sort()).toEqual([...extends_].sort());
    expect(clip).toBe("12");
    expect(prompt[ofClass(prompt, "ImageFromBatch")[0]].inputs.length).toBe(480);
  });

  it("windows follow the length: a frame past one window's end starts the next", async () => {
    for (const [seconds, windows] of [
      [4, 1],
      [5, 1],
      [5.1, 2],
      [10, 2],
      [12.3, 3],
      [30, 6],
    ] as const) {
      const prompt = await bind(seconds);
      expect(ofClass(prompt, "WanSoundImageToVideoExtend").length + 1, `${seconds} s`).toBe(windows);
      expect(prompt[ofClass(prompt, "ImageFromBatch")[0]].inputs.length).toBe(Math.ceil(seconds * 16));
    }
  });
});

describe("follow-ups of a finished result (issue 33 items 5 and 6)", () => {
  const all = () => true;
  const job = jobOf;

  it("a 1080p follow-up runs only an upscale workflow, of its result's kind; nothing else ever picks one", () => {
    expect(chooseWorkflow(workflows, job({ video: "clip.mp4", followUp: "upscale" }), all).name).toBe("esrgan-upscale-video");
    expect(chooseWorkflow(workflows, job({ mode: "text_to_image", image: "p.png", followUp: "upscale" }), all).name).toBe("esrgan-upscale-image");
    expect(chooseWorkflow(workflows, job({ mode: "video_to_video", video: "clip.mp4" }), all).binding.followUp).toBeUndefined();
    expect(chooseWorkflow(workflows, job({ mode: "text_to_image", image: "p.png" }), all).binding.followUp).toBeUndefined();
    // a template's workflow is never run as an upscale, nor an upscale workflow for a new request
    expect(() => chooseWorkflow(workflows, job({ image: "p.png", workflow: "wan22-i2v-14b", followUp: "upscale" }), all)).toThrow(UnrunnableError);
    expect(() => chooseWorkflow(workflows, job({ video: "clip.mp4", workflow: "esrgan-upscale-video" }), all)).toThrow(UnrunnableError);
  });

  it("the upscale is 1080 on the short side at the result's own shape, for pictures and clips alike", async () => {
    // a Wan 480P result's shapes (832 x 480 and its portrait)
    const shaped = async (w: number, h: number) => {
      const file = path.join(dir, `result-${w}x${h}.png`);
      await sharp({ create: { width: w, height: h, channels: 3, background: "#888" } })
        .png()
        .toFile(file);
      return file;
    };
    const results = [
      [await shaped(832, 480), { width: 1872, height: 1080 }],
      [await shaped(480, 832), { width: 1080, height: 1872 }],
    ] as const;
    for (const name of ["esrgan-upscale-image", "esrgan-upscale-video"]) {
      const wf = workflows.find((w) => w.name === name)!;
      for (const [image, size] of results) {
        const { prompt, width, height } = await bindWorkflow(wf, job({ image, followUp: "upscale" }), { ...UPLOADED, models: {}, prefix: "p" });
        expect({ width, height }).toEqual(size);
        const scale = Object.values(prompt).find((n) => n.class_type === "ImageScale")!;
        expect([scale.inputs.width, scale.inputs.height]).toEqual([size.width, size.height]);
        expect(graphProblems(prompt, catalogueFor(wf))).toEqual([]);
      }
    }
  });
});
