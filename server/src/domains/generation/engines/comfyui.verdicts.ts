import type { Logger } from "pino";
import type { FailedInput } from "../../../contract/engines.ts";
import type { FailureKind } from "./comfyui.health.ts";
import type { ComfyJob } from "./comfyui.jobs.ts";
import type { ComfyServer, failureOf, refusalOf } from "./comfyui.server.ts";
import { InputError } from "./engine.ts";
import { isOver } from "./job-book.ts";
import { inputAtFault } from "./input-faults.ts";

/** What the engine does once a verdict is reached. */
interface Hooks<J> {
  log: Logger;
  /** The try failed: the job goes to another server, or fails when its tries are used up. */
  attemptFailed(job: J, reason: string, kind?: FailureKind): void;
  /** The job ends now with `err`, its slot freed. */
  end(job: J, err: Error): void;
}

/**
 * Whose fault a refused or failed prompt is, and what follows (issue 44 item 3, decision 335). The request's own input
 * (its LoRA, photo, or a value of its own): the job fails now, naming it, and the workflow stays offered to everyone.
 * The server's: a node or validation error withdraws the workflow there until its next check, and the job is not
 * sent there again; out of GPU memory withdraws it only the second time in a row (a smaller job may fit).
 */
export function judgeFailures<J extends ComfyJob>(h: Hooks<J>) {
  function refused(job: J, s: ComfyServer<unknown>, reason: string) {
    s.offered.set(job.wf.name, { offered: false, reason });
    job.refused.add(s.url);
    h.attemptFailed(job, reason, "refused");
  }

  function outOfMemory(job: J, s: ComfyServer<unknown>, reason: string) {
    const times = (s.outOfMemory.get(job.wf.name) ?? 0) + 1;
    s.outOfMemory.set(job.wf.name, times);
    if (times >= 2) s.offered.set(job.wf.name, { offered: false, reason: `out of GPU memory ${times} times in a row: ${reason}` });
    job.refused.add(s.url);
    h.attemptFailed(job, reason, "refused");
  }

  /** The same request would fail the same on every server: no other try. */
  function inputFailed(job: J, reason: string, input: FailedInput) {
    if (isOver(job)) return;
    job.state = "failed";
    job.errors.push(`${job.server?.url ?? "?"}: ${reason}`);
    h.log.info({ job: job.job.key, server: job.server?.url, input, reason }, "comfyui job failed on the request's own input");
    h.end(job, new InputError(`the request's own ${input} was refused: ${job.errors.join(" | ")}`, input));
  }

  return {
    /** POST /prompt answered 400. */
    refusal(job: J, s: ComfyServer<unknown>, r: Awaited<ReturnType<typeof refusalOf>>) {
      const input = inputAtFault(job.wf, r.faults);
      if (input) return inputFailed(job, r.reason, input);
      if (r.workflowRefused) return refused(job, s, r.reason);
      h.attemptFailed(job, `the server refused the workflow: ${r.reason}`);
    },
    /** The prompt ran and did not succeed (its history entry). */
    failure(job: J, s: ComfyServer<unknown>, f: ReturnType<typeof failureOf>) {
      // out of memory is the server's whatever node ran out (a LoRA loader too)
      if (f.outOfMemory) return outOfMemory(job, s, f.reason);
      const input = f.fault && inputAtFault(job.wf, [f.fault]);
      if (input) return inputFailed(job, f.reason, input);
      if (f.nodeError) return refused(job, s, f.reason);
      h.attemptFailed(job, f.reason);
    },
  };
}
