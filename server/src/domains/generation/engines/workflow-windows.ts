import { z } from "zod";

type Node = { class_type: string; inputs: Record<string, unknown>; _meta?: unknown };
type Prompt = Record<string, Node>;

/**
 * A workflow whose model renders a fixed window of frames at a time and continues the clip so far for the next one
 * (Wan 2.2 sound-to-video: `WanSoundImageToVideoExtend` takes the latent made so far, decision 305). The file holds one
 * continuation window; binding repeats it as often as the clip's length needs, inside the one prompt.
 */
export const windowsSchema = z
  .object({
    /** Frames of the finished clip one window makes (Wan S2V: a length of 77 is 20 latent frames, decoded to 80). */
    frames: z.number().int().positive(),
    /** The nodes of one continuation window, as the file holds it. */
    nodes: z.array(z.string()).min(1),
    /** The node whose output the window continues: the clip so far before it. */
    from: z.string(),
    /** The window's node whose output is the clip so far after it. */
    to: z.string(),
  })
  .optional();
export type Windows = NonNullable<z.infer<typeof windowsSchema>>;

const isLink = (v: unknown): v is [string, number] => Array.isArray(v) && typeof v[0] === "string" && typeof v[1] === "number";

/** The node's inputs with every link passed through `to`. */
const relinked = (n: Node, to: (id: string) => string): Node => ({
  ...n,
  inputs: Object.fromEntries(Object.entries(n.inputs).map(([k, v]) => [k, isLink(v) ? [to(v[0]), v[1]] : v])),
});

/** The windows a clip of `frames` frames needs in all, the first (not a continuation) included. */
export const windowCount = (w: Windows, frames: number) => Math.max(1, Math.ceil(frames / w.frames));

/**
 * Chains as many windows as `frames` needs: none of the file's continuation window for a clip one window covers (its
 * readers then read `from`), else that window and copies of it under fresh numeric ids, each continuing the one before.
 * The copies keep the values already bound (the seed), so this runs after the controls are set.
 */
export function repeatWindows(prompt: Prompt, w: Windows, frames: number): void {
  const template = w.nodes.map((id) => [id, prompt[id]] as const);
  for (const id of w.nodes) delete prompt[id];
  const outside = Object.keys(prompt);
  let next = Math.max(0, ...[...outside, ...w.nodes].map(Number).filter(Number.isInteger)) + 1;
  let last = w.from;
  for (let k = 1; k < windowCount(w, frames); k++) {
    // the first continuation keeps the file's ids; later ones get fresh numeric ids, like the file's own
    const ids = new Map(template.map(([id]) => [id, k === 1 ? id : String(next++)]));
    const before = last;
    for (const [id, n] of template) prompt[ids.get(id)!] = relinked(structuredClone(n), (src) => (src === w.from ? before : (ids.get(src) ?? src)));
    last = ids.get(w.to)!;
  }
  // what reads the finished clip reads the last window's
  for (const id of outside) prompt[id] = relinked(prompt[id], (src) => (src === w.to ? last : src));
}

/** A binding's windows that name a node the workflow lacks, or a `to` outside the window, stop the start. */
export function checkWindows(graph: Record<string, unknown>, w: Windows | undefined): void {
  if (!w) return;
  for (const id of [...w.nodes, w.from]) if (!graph[id]) throw new Error(`windows name node ${id}, which the workflow lacks`);
  if (!w.nodes.includes(w.to)) throw new Error(`windows.to ${w.to} is not one of the window's nodes`);
}
