import { useEffect, useState } from "react";
import { session } from "../session/session.ts";
import { isFinished, streamTaskProgress, taskDetails, type Task } from "./generation.api.ts";

const POLL_MS = 2_000;
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * A task's live state: Server-Sent Events while the stream is open, polling picVideoSubmitDetails when it cannot
 * be opened or drops. The finished task is read once more in full (signed media URLs) and the balance refreshed,
 * since a failed task gives its credits back.
 */
export function useTaskProgress(id: number | null): Task | null {
  const [task, setTask] = useState<Task | null>(null);

  useEffect(() => {
    if (id === null) return;
    setTask(null);
    const abort = new AbortController();
    let latest: Partial<Task> = {};
    const merge = (next: Partial<Task>) => {
      latest = { ...latest, ...next, id };
      setTask(latest as Task);
    };

    async function follow() {
      try {
        merge(await taskDetails(id!));
      } catch {
        // the stream or the next poll will bring the state
      }
      if (latest.status && isFinished(latest as Task)) return;
      try {
        await streamTaskProgress(id!, merge, abort.signal);
      } catch {
        // no stream: poll instead
      }
      while (!abort.signal.aborted && !(latest.status && isFinished(latest as Task))) {
        try {
          merge(await taskDetails(id!));
        } catch {
          // keep trying; the task is still there
        }
        if (latest.status && isFinished(latest as Task)) break;
        await sleep(POLL_MS, abort.signal);
      }
    }

    void follow().then(async () => {
      if (abort.signal.aborted) return;
      try {
        merge(await taskDetails(id));
      } catch {
        // keep what the stream said
      }
      await session.refreshBalance().catch(() => null);
    });
    return () => abort.abort();
  }, [id]);

  return task;
}
