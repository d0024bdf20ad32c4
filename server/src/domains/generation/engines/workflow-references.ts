import { EngineError } from "./engine.ts";
import type { Binding } from "./workflow-binding.ts";

/**
 * A character's pictures into the workflow's reference slots, in order (decision 385). Where it has more slots than
 * pictures they are used again from the first, so every slot reads one of the character's own pictures and none is
 * left pointing at a file of another job.
 */
export function fillReferences(prompt: Record<string, { inputs: Record<string, unknown> }>, b: Binding, pictures: string[]) {
  const slots = b.inputs.references ?? [];
  if (!slots.length) return;
  if (!pictures.length) throw new EngineError("the workflow reads a character's pictures and none was given");
  slots.forEach((t, i) => (prompt[t.node].inputs[t.input] = pictures[i % pictures.length]));
}
