import type { FailedInput } from "../../../contract/engines.ts";
import type { Control } from "./workflow-binding.ts";
import type { Workflow } from "./workflows.ts";

/** What ComfyUI names of a refusal or an error: the node, and for a validation error the input it refused. */
export interface NodeFault {
  node: string;
  /** Set for a validation error (node_errors[*].errors[*].extra_info.input_name); unset for a node that failed running. */
  input?: string;
  /** A node that failed running: its exception, as ComfyUI reports it. */
  message?: string;
}

/**
 * Reverie's LoRA loader could not reach Reverie at all, or Reverie failed serving the file (gpu/comfyui-reverie's
 * LoraError without a 4xx): the server's network or ours, not the person's model, which another server may fetch.
 */
const LORA_UNREACHABLE = /could not be fetched: (?!HTTP 4\d\d)/;

/** The media controls, by the input a person reads about. */
const MEDIA: Partial<Record<Control, FailedInput>> = { image: "image", end_image: "image", video: "video", audio: "audio" };

const fed = (wf: Workflow, f: NodeFault) =>
  (Object.entries(wf.binding.inputs) as [Control, { node: string; input: string }[]][]).find(([, ts]) =>
    ts.some((t) => t.node === f.node && (f.input === undefined || t.input === f.input)),
  )?.[0];

/**
 * Which input of the request a fault of its prompt is: a LoRA loader (the person's character model) failing, unless it
 * could not reach Reverie for the file;
 * a node reading an uploaded photo, video or sound failing to run, or refusing it; a node refusing a value the binding
 * sets from the request. Undefined for the server's own: a model file the workflow loads, a missing node, a value of
 * the workflow file itself, or a node that failed running on no input of the person (out of memory, a broken file).
 */
function faultyInput(wf: Workflow, f: NodeFault): FailedInput | undefined {
  if (wf.binding.lora.some((l) => l.node === f.node)) return f.message && LORA_UNREACHABLE.test(f.message) ? undefined : "lora";
  if (Object.values(wf.binding.models).some((m) => m.node === f.node && (f.input === undefined || m.input === f.input))) return undefined;
  const control = fed(wf, f);
  if (!control) return undefined;
  const media = MEDIA[control];
  if (media) return media;
  // a node that failed running merely takes a control of ours (a sampler's seed): not the value's fault
  return f.input === undefined ? undefined : "value";
}

/** The input at fault when every fault of a prompt is the request's own (one of them is enough to name); else undefined. */
export function inputAtFault(wf: Workflow, faults: NodeFault[]): FailedInput | undefined {
  const inputs = faults.map((f) => faultyInput(wf, f));
  if (!inputs.length || inputs.some((i) => i === undefined)) return undefined;
  return inputs.find((i) => i === "lora") ?? inputs[0];
}
