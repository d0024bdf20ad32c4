import fs from "node:fs";
import path from "node:path";
import type { CameraMove, ModelFolder } from "../../../contract/engines.ts";
import { WORKFLOWS_DIR } from "../../../paths.ts";
import { chainWindows } from "./animate-chain.ts";
import { bindingSchema, type Binding, type Control, modesFit, NEED_WORDS, type Need } from "./workflow-binding.ts";
import { EngineError, type EngineJob, type LoraLinks } from "./engine.ts";
import { bindLoras, REVERIE_LOADERS } from "./lora-links.ts";
import { fillReferences } from "./workflow-references.ts";
import { outputSizeFor } from "./output-size.ts";
import { repeatWindows, checkWindows } from "./workflow-windows.ts";

/**
 * Workflows are files (decision 082): server/workflows/<name>.json in ComfyUI's API format (node id -> {class_type,
 * inputs}, links as [node id, output index]) and <name>.binding.json saying which node input receives each control.
 * The ComfyUI pool and the serverless engine both run them.
 */
export { WORKFLOWS_DIR };
export type { Binding };

/** ComfyUI's WanCameraEmbedding camera_pose for each move (the stock node's options, comfyui.md §15). */
const CAMERA_POSES: Record<CameraMove, string> = {
  pan_left: "Pan Left",
  pan_right: "Pan Right",
  pan_up: "Pan Up",
  pan_down: "Pan Down",
  zoom_in: "Zoom In",
  zoom_out: "Zoom Out",
  rotate_clockwise: "ClockWise (CW)",
  rotate_anticlockwise: "Anti Clockwise (ACW)",
};

export type Graph = Record<string, { class_type: string; inputs: Record<string, unknown>; _meta?: unknown }>;

export interface Workflow {
  name: string;
  graph: Graph;
  binding: Binding;
}

/** Reads every workflow and its binding; a broken file stops the start with its name. */
export function loadWorkflows(dir = WORKFLOWS_DIR): Workflow[] {
  const names = fs.readdirSync(dir).filter((f) => f.endsWith(".json") && !f.endsWith(".binding.json"));
  return names
    .map((file) => {
      const name = file.slice(0, -".json".length);
      try {
        const graph = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as Graph;
        const binding = bindingSchema.parse(JSON.parse(fs.readFileSync(path.join(dir, `${name}.binding.json`), "utf8")));
        if (binding.poster && graph[binding.poster.node]?.class_type !== "SaveImage") throw new Error(`its poster node ${binding.poster.node} is no SaveImage`);
        for (const t of [
          ...Object.values(binding.inputs).flat(),
          ...Object.values(binding.models),
          ...binding.lora.map((l) => ({ node: l.node, input: l.name })),
        ]) {
          if (!graph[t.node] || !(t.input in graph[t.node].inputs)) throw new Error(`binding names ${t.node}.${t.input}, which the workflow lacks`);
        }
        for (const l of binding.lora)
          if (!REVERIE_LOADERS[graph[l.node].class_type]) throw new Error(`its LoRA node ${l.node} is no ${Object.keys(REVERIE_LOADERS).join(" or ")}`);
        // a slot without a family would take any character model, and load none of another family's keys (decision 395)
        if (binding.lora.length > 0 !== !!binding.loraFamily)
          throw new Error(binding.loraFamily ? "it names a loraFamily but has no LoRA slot" : "its LoRA slot names no loraFamily");
        checkWindows(graph, binding.windows);
        if (!binding.followUp) modesFit(binding);
        return { name, graph, binding };
      } catch (err) {
        throw new Error(`workflow ${name}: ${(err as Error).message}`);
      }
    })
    .sort((a, b) => a.binding.priority - b.binding.priority || a.name.localeCompare(b.name));
}

/** The model file a slot loads: COMFYUI_MODELS, else the binding's default. */
export const modelFile = (wf: Workflow, slot: string, models: Record<string, string>) => models[slot] ?? wf.binding.models[slot].default;

/** A combo input's options, in either shape /object_info uses (comfyui.md §1): [[...], {...}] or ["COMBO", {options}]. */
export function comboOptions(spec: unknown): string[] | undefined {
  if (!Array.isArray(spec)) return undefined;
  if (Array.isArray(spec[0])) return spec[0].map(String);
  if (spec[0] === "COMBO" && spec[1] && typeof spec[1] === "object") return ((spec[1] as { options?: unknown[] }).options ?? []).map(String);
  return undefined;
}

export type ObjectInfo = Record<string, { input?: { required?: Record<string, unknown>; optional?: Record<string, unknown> }; output?: string[] }>;

/** A model file a server lacks, with where to get it: `url` null where the file is the operator's own choice. */
export interface MissingFile {
  slot: string;
  file: string;
  folder: ModelFolder;
  url: string | null;
  size: number | null;
  sha256: string | null;
}

/** What a server's /object_info says of one workflow: runnable, or the nodes and files it lacks. */
export interface WorkflowCheck {
  offered: boolean;
  reason?: string;
  missingNodes?: string[];
  missingFiles?: MissingFile[];
}

/**
 * Whether a server's /object_info has every node class of the workflow and every model file it loads; what is missing
 * when not, with the manifest's download for each file (the console's Engines page and `npm run gpu:check` show it).
 */
export function checkWorkflow(wf: Workflow, info: ObjectInfo, models: Record<string, string>): WorkflowCheck {
  const missingNodes = [...new Set(Object.values(wf.graph).map((n) => n.class_type))].filter((c) => !info[c]);
  if (missingNodes.length) return { offered: false, reason: `missing nodes: ${missingNodes.join(", ")}`, missingNodes };
  const missingFiles: MissingFile[] = [];
  for (const [slot, t] of Object.entries(wf.binding.models)) {
    const cls = info[wf.graph[t.node].class_type];
    const options = comboOptions(cls.input?.required?.[t.input] ?? cls.input?.optional?.[t.input]);
    const file = modelFile(wf, slot, models);
    if (options?.includes(file)) continue;
    // an overridden file's source is looked up by name (manifestOf); the slot's own download is another file
    const source = file === t.default ? { url: t.url, size: t.size, sha256: t.sha256 } : { url: null, size: null, sha256: null };
    missingFiles.push({ slot, file, folder: t.folder, ...source });
  }
  if (missingFiles.length) return { offered: false, reason: `missing models: ${missingFiles.map((f) => f.file).join(", ")}`, missingFiles };
  return { offered: true };
}

/**
 * The prompt to queue: a copy of the workflow with the job's controls, the uploaded file names, the configured model
 * files and the LoRA (or the LoRA nodes bypassed when none is given).
 */
export async function bindWorkflow(
  wf: Workflow,
  job: EngineJob,
  o: {
    image?: string;
    /** The uploaded names of the character's reference pictures (decision 385). */
    references?: string[];
    endImage?: string;
    video?: string;
    audio?: string;
    models: Record<string, string>;
    prefix: string;
    /** The server the prompt goes to, and what signs the link it fetches the job's LoRA by there (decision 330). */
    server?: string;
    links?: LoraLinks;
  },
): Promise<{ prompt: Graph; width: number; height: number }> {
  const b = wf.binding;
  const prompt = JSON.parse(JSON.stringify(wf.graph)) as Graph;
  for (const n of Object.values(prompt)) delete n._meta;
  const set = (control: Control, value: unknown) => {
    if (value === undefined) return;
    for (const t of b.inputs[control] ?? []) prompt[t.node].inputs[t.input] = value;
  };
  const { width, height } = await outputSizeFor(b, job);
  const fps = b.fps ?? 24;
  const step = b.frames?.step ?? 1;
  const frames = Math.max(1, Math.ceil((job.durationSec * fps) / step)) * step + (b.frames?.plus ?? 0);
  const given: Record<Need, unknown> = {
    image: o.image,
    video: o.video,
    end_image: o.endImage,
    camera: job.camera,
    motion: o.image && o.video,
    audio: o.audio,
  };
  for (const need of b.needs) if (!given[need]) throw new EngineError(`workflow ${wf.name} needs ${NEED_WORDS[need]}`);
  const promptText = [job.lora?.triggerWord, job.prompt].filter(Boolean).join(", ");
  set("image", o.image);
  fillReferences(prompt, b, o.references?.length ? o.references : o.image ? [o.image] : []);
  set("end_image", o.endImage);
  set("camera", job.camera && CAMERA_POSES[job.camera]);
  set("video", o.video);
  set("audio", o.audio);
  if (promptText) set("prompt", promptText);
  if (job.negativePrompt) set("negative_prompt", job.negativePrompt);
  set("seed", job.seed);
  set("width", width);
  set("height", height);
  set("frames", frames);
  set("fps", fps);
  if (job.strength !== undefined) set("strength", job.strength);
  set("count", job.mode === "image_batch" ? job.count : 1);
  // a fresh prefix per job, so an identical re-run writes its own files instead of ComfyUI's cached ones (comfyui.md §6)
  set("prefix", o.prefix);
  for (const [slot, t] of Object.entries(b.models)) prompt[t.node].inputs[t.input] = modelFile(wf, slot, o.models);
  if (b.windows) repeatWindows(prompt, b.windows, frames);

  bindLoras(prompt, b, job.lora, job.lora && o.server ? o.links?.link(job.lora.sha256, o.server) : undefined);
  if (b.chain) await chainWindows(prompt, b.chain, job);
  return { prompt, width, height };
}
