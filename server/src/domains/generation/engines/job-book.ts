import type { Logger } from "pino";
import { EngineError, type EngineJob, type EngineProgress, type EngineResult } from "./engine.ts";

/**
 * The bookkeeping every engine does for the jobs it was handed: each job under its id until its result is taken, the
 * job's end as a promise, cancellation of a job still under way; and for the GPU engines, which try a job on a back end
 * up to `maxTries` times, each failed try's reason and the recent errors the console shows.
 */

/** What an engine keeps of a job, whatever else it tracks. */
export interface BookedJob {
  /** "waiting": in the engine's own queue, not yet on a back end (shown as running). */
  state: EngineProgress["state"] | "waiting";
  done: Promise<EngineResult>;
  resolve(r: EngineResult): void;
  reject(e: Error): void;
  /** Why the job was stopped (a time-out names itself), for the error its caller stores. */
  stopReason?: string;
}

/** A job an engine tries on a back end, up to `maxTries` times. */
export interface TriedJob extends BookedJob {
  job: EngineJob;
  tries: number;
  percent: number;
  /** Why each failed try failed, oldest first. */
  errors: string[];
}

/** A job's end: `done` settles when resolve or reject is called. */
export function settlement(): Pick<BookedJob, "done" | "resolve" | "reject"> {
  let resolve!: (r: EngineResult) => void;
  let reject!: (e: Error) => void;
  const done = new Promise<EngineResult>((res, rej) => ((resolve = res), (reject = rej)));
  // a job whose result nobody asks for (cancelled, or its worker gone) must not end as an unhandled rejection
  done.catch(() => undefined);
  return { done, resolve, reject };
}

/** The state a job's progress reports: one waiting in the engine's queue is running as far as its caller knows. */
export const shownState = (j: BookedJob): EngineProgress["state"] => (j.state === "waiting" ? "running" : j.state);

/** The job ended (done, failed or cancelled): nothing changes it any more. */
export const isOver = (j: BookedJob) => j.state === "done" || j.state === "failed" || j.state === "cancelled";

/** The jobs an engine keeps, by id. */
export function createJobBook<J extends BookedJob>() {
  const jobs = new Map<string, J>();

  function find(id: string): J {
    const j = jobs.get(id);
    if (!j) throw new EngineError(`unknown job ${id}`);
    return j;
  }

  return {
    get: (id: string) => jobs.get(id),
    add: (id: string, job: J) => void jobs.set(id, job),
    /** The job, or an EngineError for an id the engine does not know (its result was taken, or never was its). */
    find,
    all: () => [...jobs.values()],
    get size() {
      return jobs.size;
    },
    /** The job's result (or its failure); the engine forgets the job then. */
    async result(id: string): Promise<EngineResult> {
      const j = find(id);
      try {
        return await j.done;
      } finally {
        jobs.delete(id);
      }
    },
    /** Marks a job still under way cancelled and answers it; undefined when it is unknown or already ended. */
    cancel(id: string, reason?: string): J | undefined {
      const j = jobs.get(id);
      if (!j || isOver(j)) return undefined;
      j.state = "cancelled";
      j.stopReason = reason;
      return j;
    },
  };
}

/** What a failed request says: the network error under fetch's own "fetch failed" where there is one. */
export const reasonOf = (err: unknown) => (err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err));

/** A GPU engine's record of failed tries: on each job, in its recent errors, and in the log. */
export function createTryRecord(o: { maxTries: number; log: Logger }) {
  const lastErrors: { at: string; message: string }[] = [];

  function noteError(message: string) {
    lastErrors.unshift({ at: new Date().toISOString(), message });
    lastErrors.length = Math.min(lastErrors.length, 10);
  }

  return {
    noteError,
    /** The last ten errors, newest first. */
    recentErrors: () => [...lastErrors],
    /**
     * A try of `j` failed for `message`: kept on the job, noted and logged (`logged` as the log line's fields and
     * text). Answers the error the job fails with when its tries are used up (or `giveUp`), else null: try again.
     */
    failed(j: TriedJob, message: string, logged: [fields: object, text: string], giveUp = false): EngineError | null {
      j.errors.push(message);
      noteError(message);
      o.log.warn(...logged);
      if (j.tries < o.maxTries && !giveUp) return null;
      j.state = "failed";
      return new EngineError(`every try failed: ${j.errors.join(" | ")}`);
    },
  };
}
