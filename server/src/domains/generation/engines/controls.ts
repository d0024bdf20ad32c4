import {
  CAMERA_MOVES,
  REQUEST_EXTRAS,
  STUDIO_CONTROLS,
  type CameraMove,
  type RequestExtra,
  type StudioControl,
  type WorkflowTier,
} from "../../../contract/engines.ts";
import { IMAGE_MODES, type GenerationMode } from "../../../contract/generation.ts";
import { MODE_NEEDS } from "./workflow-binding.ts";
import { chooseWorkflow, type LoraBase } from "./workflow-choice.ts";
import type { Binding, Workflow } from "./workflows.ts";

export { REQUEST_EXTRAS, type RequestExtra };

/** A template's own camera move (its engine parameters' `camera`), if it names one of CAMERA_MOVES. */
export const templateCamera = (params: unknown): CameraMove | undefined => {
  const camera = (params as { camera?: unknown } | null)?.camera;
  return (CAMERA_MOVES as readonly unknown[]).includes(camera) ? (camera as CameraMove) : undefined;
};

/** The extras a template brings by itself: its camera move. */
export const templateExtras = (params: unknown): RequestExtra[] => (templateCamera(params) ? ["camera"] : []);

/**
 * What a price or a studio control asks of the workflow a request would run: its mode, pinned workflow, source, and
 * the extras it brings.
 */
export type WorkflowRequest = {
  mode: GenerationMode;
  workflow?: string | null;
  source?: "image" | "video";
  extras?: readonly RequestExtra[];
  /** a 1080p follow-up runs only an upscale workflow (decision 307) */
  followUp?: "upscale";
  /** the person's character model: run only by a workflow that applies it (decision 336), of its family (decision 395) */
  lora?: LoraBase;
  /** best (unset) or fast: only a workflow of this tier runs it (issue 45) */
  tier?: WorkflowTier;
};

/** The source a request of each mode brings (its own needs, MODE_NEEDS), for pricing or refusing it as the submit will. */
export const sourceOf = (mode: GenerationMode): "image" | "video" | undefined =>
  MODE_NEEDS[mode].includes("video") ? "video" : MODE_NEEDS[mode].includes("image") ? "image" : undefined;

/**
 * The workflow a request would run (chooseWorkflow among the `usable` ones), the same pick as the submit's; undefined
 * when none makes the mode or the pinned one is unknown (the submit is then refused with 503 before any charge).
 */
export function workflowFor(workflows: Workflow[], o: WorkflowRequest, usable: (wf: Workflow) => boolean): Workflow | undefined {
  // stand-ins: only whether the request brings them decides the pick; copying motion brings a photo and a video, audio
  // overlay always its sound, which a workflow driven by it (lip sync) needs
  const brings = o.extras?.includes("motion") ? { image: "source", video: "source" } : o.source ? { [o.source]: "source" } : {};
  const source = { ...brings, ...(o.mode === "audio_overlay" ? { audio: "source" } : {}) };
  const extras = { endImage: o.extras?.includes("end_image") ? "source" : undefined, camera: o.extras?.includes("camera") ? ("zoom_in" as const) : undefined };
  try {
    return chooseWorkflow(
      workflows,
      { mode: o.mode, workflow: o.workflow ?? undefined, followUp: o.followUp, lora: o.lora, tier: o.tier, ...source, ...extras },
      usable,
    );
  } catch {
    return undefined;
  }
}

/**
 * The workflow a price and the studio's controls are of: the one the request would run, else the one its template pins
 * while the request does not fit it yet (a transition before its second photo is chosen), which the submit refuses
 * until it does (decision 315).
 */
export const runOrPinned = (workflows: Workflow[], o: WorkflowRequest, usable: (wf: Workflow) => boolean): Workflow | undefined =>
  workflowFor(workflows, o, usable) ?? workflows.find((w) => w.name === o.workflow && !w.binding.followUp);

/**
 * Which studio controls reach the render (issue 31, decision 273): the app shows only these, so nothing a person sets
 * is silently dropped. The local draft renderer's are fixed by what it draws: its photo videos move by the template's
 * motion at the photo's own shape, its looks restyle a video as they are; its procedural pictures (and the picture a
 * text-to-video starts from) follow the prompt, seed and aspect, and a reference photo tints them.
 */
const DRAWN = STUDIO_CONTROLS.filter((c) => !["negative_prompt", "strength", "audio", ...REQUEST_EXTRAS].includes(c));
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

/**
 * The controls a workflow's binding wires to a node input (the audio: it drives the picture); the aspect needs both the
 * width and the height; copying motion is what a workflow needing it does, so the choice stays shown once made.
 */
function bound(b: Binding): StudioControl[] {
  return STUDIO_CONTROLS.filter((c) =>
    c === "aspect" ? !!(b.inputs.width && b.inputs.height) : c === "motion" ? b.needs.includes("motion") : c !== "image" && !!b.inputs[c],
  );
}

/**
 * A GPU engine's controls: those of the workflow it will run (chooseWorkflow, among the `usable` ones), and for the
 * image modes a reference picture where that choice given a picture is an image-to-image workflow, with its controls.
 * A last frame or a camera move is offered where a usable workflow of the mode (or the pinned one) takes it, one at a
 * time: no workflow takes both.
 */
export function workflowControls(workflows: Workflow[], o: WorkflowRequest, usable: (wf: Workflow) => boolean): StudioControl[] {
  const plain = runOrPinned(workflows, o, usable);
  const controls = new Set<StudioControl>(plain ? bound(plain.binding) : []);
  if ((IMAGE_MODES as readonly string[]).includes(o.mode)) {
    // offered only where a workflow using the picture runs now: none other would take it (decision 336)
    const withPicture = workflowFor(workflows, { ...o, source: "image" }, usable);
    if (withPicture && usable(withPicture) && withPicture.binding.needs.includes("image"))
      for (const c of ["image", ...bound(withPicture.binding)] as const) controls.add(c);
  }
  if (!o.extras?.length) {
    for (const extra of REQUEST_EXTRAS) {
      const wf = workflowFor(workflows, { ...o, extras: [extra] }, usable);
      if (wf && usable(wf)) controls.add(extra);
    }
  }
  return STUDIO_CONTROLS.filter((c) => controls.has(c));
}
