import type { GenerationMode } from "../../../contract/generation.ts";
import { loraFamilyOf } from "../../../contract/training.ts";
import { type EngineJob, type EngineLora, UnrunnableError } from "./engine.ts";
import { EXTRAS, NEED_WORDS, type Need } from "./workflow-binding.ts";
import type { Workflow } from "./workflows.ts";

/**
 * Which workflow makes a request (decisions 303, 315, 336, 395): the template's, else the first of its mode that uses
 * everything the request brings; why a pinned one cannot. The engines, the prices and the refusals all ask here.
 */

/** What a job brings, by the workflow needs it meets. */
const brought = (job: Brought): Record<Need, boolean> => ({
  image: !!job.image,
  video: !!job.video,
  end_image: !!job.endImage,
  camera: !!job.camera,
  motion: !!job.image && !!job.video,
  audio: !!job.audio,
});
/** A character model as workflow choice sees it: the base model it was trained on, whose family must be the workflow's. */
export type LoraBase = Pick<EngineLora, "baseModel">;
type JobNeeds = Pick<EngineJob, "mode" | "workflow" | "tier" | "image" | "video" | "endImage" | "camera" | "audio" | "followUp" | "references"> & {
  lora?: LoraBase;
};
/** What a request brings to its workflow: the media, last frame and camera move, by whether each is given. */
export type Brought = Pick<EngineJob, "image" | "video" | "endImage" | "camera" | "audio"> & { lora?: LoraBase };

/**
 * Why a pinned workflow cannot make a request, read from its binding alone (decision 315): a mode it does not make,
 * a need the request does not bring, or an extra it brings that the workflow does not take (so it is not dropped);
 * undefined where it can. The same needs the job would fail on after the charge, asked before it.
 */
export function misfit(
  wf: Workflow,
  mode: GenerationMode,
  job: Brought,
): { mode: GenerationMode } | { lacks: Need } | { takesNo: (typeof EXTRAS)[number] } | undefined {
  if (!wf.binding.modes.includes(mode)) return { mode };
  const has = brought(job);
  // an extra it lacks names what the template is for: copying motion lacks its photo, not just "a picture"
  const lacking = wf.binding.needs.filter((n) => !has[n]);
  const lacks = lacking.find((n) => (EXTRAS as readonly Need[]).includes(n)) ?? lacking[0];
  if (lacks) return { lacks };
  const takesNo = EXTRAS.find((x) => has[x] && !wf.binding.needs.includes(x));
  return takesNo ? { takesNo } : undefined;
}

/**
 * Why a template of `mode` cannot pin the workflow `name` (decision 320), in the console's words (its workflow choice
 * reads "title (name)"): no such file, an upscale that runs only after a finished result (decision 307), or a binding
 * that does not make the mode, so every submit would be refused (decision 315); null where it can, or none is pinned.
 */
export function pinFault(workflows: Workflow[], mode: GenerationMode, name: string | null | undefined): string | null {
  if (!name) return null;
  const wf = workflows.find((w) => w.name === name);
  if (!wf) return `There is no workflow named ${name}: choose one from the list`;
  const called = `${wf.binding.title} (${name})`;
  if (wf.binding.followUp) return `${called} runs only after a finished result and cannot be a template's workflow`;
  if (!wf.binding.modes.includes(mode)) return `${called} does not make ${mode}; it makes ${wf.binding.modes.join(", ")}`;
  return null;
}

/**
 * Whether a workflow's LoRA slot loads this character model (decision 395): the slot's family is the one its base model
 * maps to. A base model mapped to no family is loaded by none.
 */
export const takesLora = (w: Workflow, lora: LoraBase) => w.binding.lora.length > 0 && w.binding.loraFamily === loraFamilyOf(lora.baseModel);

/** A character model's family in an operator's words, for the reason a job cannot run. */
const trainedOn = (lora: LoraBase) => loraFamilyOf(lora.baseModel) ?? `an unknown base model (${lora.baseModel ?? "none recorded"})`;

/**
 * Whether a workflow uses everything a job brings (issue 44 item 4, decision 336): a photo or a video it reads, a LoRA
 * it applies, of its own family (decision 395). A sound is used by every workflow: one that does not read it has it laid
 * under its video.
 */
const usesAll = (w: Workflow, has: Record<Need, boolean>, lora: LoraBase | undefined) =>
  (["image", "video"] as const).every((m) => !has[m] || w.binding.needs.includes(m)) && (!lora || takesLora(w, lora));

/**
 * The workflow for a job: the template's, else the first (by priority) of the mode whose needs the job meets and that
 * uses everything it brings, a usable one first. A photo, a video, a LoRA, a last frame or a camera move is run only by
 * a workflow that uses it, a LoRA only by one of its family (decision 395): where none does (or the template's does
 * not), the job cannot run rather than lose it; where none that does is usable, the first of them is answered, which
 * the engine then refuses as unrunnable, never another that would drop an input (a photo given to text to image never
 * runs as text to image) or load none of a LoRA's keys (a Flux character on an SDXL or Wan workflow).
 */
export function chooseWorkflow(workflows: Workflow[], job: JobNeeds, usable: (wf: Workflow) => boolean): Workflow {
  const has = brought(job);
  const extras = EXTRAS.filter((x) => has[x]);
  const takes = (w: Workflow) =>
    w.binding.needs.every((n) => has[n]) &&
    extras.every((x) => w.binding.needs.includes(x)) &&
    w.binding.followUp === job.followUp &&
    usesAll(w, has, job.lora) &&
    // a follow-up's post-step (an upscale) serves results of either tier
    (job.followUp !== undefined || w.binding.tier === (job.tier ?? "full"));
  if (job.workflow) {
    const wf = workflows.find((w) => w.name === job.workflow);
    if (!wf) throw new UnrunnableError(`no workflow named ${job.workflow}`);
    if (!EXTRAS.every((x) => has[x] === wf.binding.needs.includes(x))) throw new UnrunnableError(`workflow ${wf.name} ${unmet(wf, has)}`);
    if (wf.binding.followUp !== job.followUp) throw new UnrunnableError(`workflow ${wf.name} is not a ${job.followUp ?? "generation"} workflow`);
    if (job.lora && !wf.binding.lora.length) throw new UnrunnableError(`workflow ${wf.name} applies no character model (LoRA)`);
    if (job.lora && !takesLora(wf, job.lora))
      throw new UnrunnableError(`workflow ${wf.name} takes character models trained on ${wf.binding.loraFamily}, not on ${trainedOn(job.lora)}`);
    return wf;
  }
  const fitting = workflows.filter((w) => w.binding.modes.includes(job.mode) && takes(w));
  // a character's several pictures go first to a workflow that reads them all, where one fits (decision 385)
  const readsAll = (w: Workflow) => !!job.references?.length && !!w.binding.inputs.references;
  const fits = [...fitting.filter(readsAll), ...fitting.filter((w) => !readsAll(w))];
  const wf = fits.find(usable) ?? fits[0];
  if (!wf) {
    const what = job.followUp ? `${job.followUp} of ${job.mode}` : job.mode;
    const withWhat = [...extras.map((x) => NEED_WORDS[x]), ...(job.lora ? [`a character model trained on ${trainedOn(job.lora)}`] : [])]
      .map((x) => ` with ${x}`)
      .join("");
    throw new UnrunnableError(`no workflow makes ${what}${has.image ? " from a photo" : ""}${withWhat}`);
  }
  return wf;
}

const unmet = (wf: Workflow, has: Record<Need, boolean>) =>
  EXTRAS.map((x) =>
    has[x] && !wf.binding.needs.includes(x) ? `takes no ${NEED_WORDS[x].slice(2)}` : !has[x] && wf.binding.needs.includes(x) ? `needs ${NEED_WORDS[x]}` : "",
  )
    .filter(Boolean)
    .join(" and ");
