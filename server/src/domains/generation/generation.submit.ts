import crypto from "node:crypto";
import type { EngineKind } from "../../contract/engines.ts";
import type { FollowUp, GenerationMode, TaskStatus } from "../../contract/generation.ts";
import { isUniqueViolation, sqlTransaction } from "../../db/client.ts";
import { createSlots } from "../../db/slots.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import { refuseBrokenPrompt } from "../screening/prompt-rules.ts";
import type { RequestExtra } from "./engines/controls.ts";
import type { Resolution } from "./engines/engine.ts";
import { countRemix, insertTask } from "./generation.queries.ts";
import type { Pricing } from "./generation.pricing.ts";
import { STATUS_TEXT, taskChargeKey, type GenerationDeps, type KnownBalance, type TaskInput } from "./generation.task.ts";

export interface SubmitRequest {
  mode: GenerationMode;
  engine: EngineKind;
  templateId?: number;
  resolution?: Resolution;
  durationSec?: number;
  input: TaskInput;
  /** What the request brings that only some workflows take (issue 33): refused before any charge where none runs now. */
  extras?: RequestExtra[];
  cost: number;
  idempotencyKey?: string;
  known?: KnownBalance;
  /** the gallery item whose settings this request uses ("use these settings"), counted on it with the charge */
  remixOfId?: number;
  /** the finished result this task follows up (decision 307) */
  followUp?: { kind: FollowUp; sourceId: number };
}

type Submitted = { id: number; cost: number; status: string; paid_with: string };

const answer = (t: { id: number; cost: number; status: TaskStatus; paidWith: string }): Submitted => ({
  id: t.id,
  cost: t.cost,
  status: STATUS_TEXT[t.status],
  paid_with: t.paidWith,
});

/** Submitting a task: the refusals that cost nothing first, then the charge, the task and its job in one transaction. */
export function createSubmit(deps: GenerationDeps, { freeCovers }: Pricing) {
  const { db, credits, queue, engines } = deps;
  /** Charging transactions may hold at most half the pool; the rest stays free for reads and refusals. */
  const chargingSlot = createSlots(Math.floor(deps.config.DB_POOL_SIZE / 2));

  /** The task this idempotency key already made, if any. */
  async function earlier(userId: number, idempotencyKey: string): Promise<Submitted | null> {
    const existing = await db.generationTask.findUnique({ where: { userId_idempotencyKey: { userId, idempotencyKey } } });
    return existing && answer(existing);
  }

  /** Everything that refuses a submit before anything is charged. */
  async function refuseEarly(userId: number, r: SubmitRequest): Promise<void> {
    // sexual content involving minors is refused by the shared rule set before anything is charged (decision 141)
    refuseBrokenPrompt(r.input.prompt);
    // an engine that cannot take the job refuses it here, before anything is charged
    // what the person brings must fit the workflow their template pins; a follow-up's workflow is the engine's own
    // pick for what it brings itself (a clip's last frame), no template's
    const { imageKey: image, videoKey: video, endImageKey: endImage, camera, audioKey: audio, lora } = r.input;
    await engines.assertCanRun(
      r.engine,
      r.mode,
      r.input.workflow,
      r.extras,
      r.followUp ? undefined : { image, video, endImage, camera, audio, lora },
      r.input.tier,
    );
    // Cheap refusal first: the balance read with the session cannot pay, so no transaction is queued for, nor any
    // query made. That balance is the ledger's at a moment of this request, also when the login was kept in memory
    // (docs/decisions/221, 222). The conditional charge inside the transaction stays the guarantee for everything
    // this lets through.
    const k = r.known;
    if (k && r.cost > 0 && !(freeCovers(r.cost) && k.free_generations > 0) && k.points < r.cost) throw new HttpError(402, MSG.notEnoughCredits);
    await deps.countSubmit(userId);
  }

  /** The charge (or free generation), the task and its job, committed together. */
  function chargeAndQueue(userId: number, r: SubmitRequest) {
    return chargingSlot(() =>
      sqlTransaction(db, async (tx) => {
        const free = freeCovers(r.cost) && (await credits.useFreeGeneration(tx, userId));
        const jobId = crypto.randomUUID();
        const created = (await insertTask.first(tx, {
          userId,
          jobId,
          mode: r.mode,
          templateId: r.templateId,
          engine: r.engine,
          cost: r.cost,
          paidWith: free ? "free" : "credits",
          idempotencyKey: r.idempotencyKey,
          input: r.input,
          resolution: r.resolution,
          durationSec: r.durationSec,
          remixOfId: r.remixOfId,
          followUp: r.followUp,
        }))!;
        // a source taken out of the gallery since it was opened is not remixed: nothing is charged or made
        if (r.remixOfId) {
          const source = await countRemix.first(tx, { taskId: r.remixOfId });
          if (!source) throw HttpError.notFound();
          await deps.notify(tx, { userId: source.ownerId, kind: "remix", subjectId: source.id, actorId: userId });
        }
        if (!free && r.cost > 0) {
          await credits.charge(
            { userId, amount: r.cost, reason: "generation", reference: `task:${created.id}`, idempotencyKey: taskChargeKey(created.id) },
            tx,
          );
        }
        await queue.send(tx, created.id, jobId);
        return created;
      }),
    );
  }

  /**
   * Charges (or uses a free generation), creates the task and enqueues its job in one transaction. Every statement
   * in it is raw SQL on one pg connection: about 40 charged submits a second kept Prisma's interactive transaction
   * and query compiler at a tenth of the API thread, which cheap requests then waited behind (docs/decisions/226).
   */
  async function submit(userId: number, r: SubmitRequest): Promise<Submitted> {
    if (r.idempotencyKey) {
      const existing = await earlier(userId, r.idempotencyKey);
      if (existing) return existing;
    }
    await refuseEarly(userId, r);
    // start the queue (first submit of this process) before taking any lock
    await queue.ready();
    try {
      return answer(await chargeAndQueue(userId, r));
    } catch (err) {
      if (r.idempotencyKey && isUniqueViolation(err)) {
        const existing = await earlier(userId, r.idempotencyKey);
        if (existing) return existing;
      }
      throw err;
    }
  }

  return submit;
}
