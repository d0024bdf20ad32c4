/**
 * Seconds a prompt held the GPU, by the server's own clock: from its `execution_start` message to its last one
 * (`execution_success`), as /history keeps them (comfyui.md §5: the timestamps are server epoch milliseconds). Time
 * spent waiting in the server's queue is not counted; the run is named by its workflow. Undefined when the messages carry no such pair.
 */
export function gpuRunOf(workflow: string, messages: [string, Record<string, unknown>][]): { workflow: string; seconds: number } | undefined {
  const start = messages.find(([type]) => type === "execution_start")?.[1].timestamp;
  const end = messages.at(-1)?.[1].timestamp;
  if (typeof start !== "number" || typeof end !== "number" || end < start) return undefined;
  return { workflow, seconds: (end - start) / 1000 };
}
