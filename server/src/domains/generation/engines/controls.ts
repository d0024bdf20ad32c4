import { STUDIO_CONTROLS, type StudioControl } from "../../../contract/engines.ts";
import { IMAGE_MODES, type GenerationMode } from "../../../contract/generation.ts";
import { chooseWorkflow, type Binding, type Workflow } from "./workflows.ts";

/** What a price or a studio control asks of the workflow a request would run: its mode, pinned workflow and source. */
export type WorkflowRequest = { mode: GenerationMode; workflow?: string | null; source?: "image" | "video" };

/**
 * The workflow a request would run (chooseWorkflow among the `usable` ones), the same pick as the submit's; undefined
 * when none makes the mode or the pinned one is unknown (the submit is then refused with 503 before any charge).
 */
export function workflowFor(workflows: Workflow[], o: WorkflowRequest, usable: (wf: Workflow) => boolean): Workflow | undefined {
  const source = o.source ? { [o.source]: "source" } : {};
  try {
    return chooseWorkflow(workflows, { mode: o.mode, workflow: o.workflow ?? undefined, ...source }, usable);
  } catch {
    return undefined;
  }
}

/**
 * Which studio controls reach the render (issue 31, decision 273): the app shows only these, so nothing a person sets
 * is silently dropped. The local draft renderer's are fixed by what it draws: its photo videos move by the template's
 * motion at the photo's own shape, its looks restyle a video as they are; its procedural pictures (and the picture a
 * text-to-video starts from) follow the prompt, seed and aspect, and a reference photo tints them.
 */
const DRAWN = STUDIO_CONTROLS.filter((c) => c !== "negative_prompt" && c !== "strength");
const LOCAL: Record<GenerationMode, readonly StudioControl[]> = {
  image_to_video: [],
  audio_overlay: [],
  role_video: [],
  video_to_video: [],
  text_to_video: DRAWN.filter((c) => c !== "image"),
  text_to_image: DRAWN,
  image_batch: DRAWN,
};

export const localControls = (mode: GenerationMode): StudioControl[] => [...LOCAL[mode]];

/** The controls a workflow's binding wires to a node input; the aspect needs both the width and the height. */
function bound(b: Binding): StudioControl[] {
  return STUDIO_CONTROLS.filter((c) => (c === "aspect" ? !!(b.inputs.width && b.inputs.height) : c !== "image" && !!b.inputs[c]));
}

/**
 * A GPU engine's controls: those of the workflow it will run (chooseWorkflow, among the `usable` ones), and for the
 * image modes a reference picture where that choice given a picture is an image-to-image workflow, with its controls.
 */
export function workflowControls(workflows: Workflow[], o: WorkflowRequest, usable: (wf: Workflow) => boolean): StudioControl[] {
  const plain = workflowFor(workflows, o, usable);
  const controls = new Set<StudioControl>(plain ? bound(plain.binding) : []);
  if ((IMAGE_MODES as readonly string[]).includes(o.mode)) {
    const withPicture = workflowFor(workflows, { ...o, source: "image" }, usable);
    if (withPicture?.binding.needs.includes("image")) for (const c of ["image", ...bound(withPicture.binding)] as const) controls.add(c);
  }
  return STUDIO_CONTROLS.filter((c) => controls.has(c));
}
