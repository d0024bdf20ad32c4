import crypto from "node:crypto";
import type { CharacterModel } from "../../db/generated/client.ts";
import { HttpError } from "../../http/errors.ts";
import { mediaKey } from "../../storage/storage.ts";
import { requireTrainer, type TrainingRuns } from "./training.runs.ts";
import type { TrainingDeps } from "./training.deps.ts";
import { TrainerError, type TrainerUpdate } from "./trainers/trainer.ts";
import { checkSafetensors, unwrapTar, WeightsError } from "./weights.ts";

/** What the trainer says of a run (verified webhook, or the poll that asks): progress, the weights, or the end. */
export function createTrainingUpdates(d: TrainingDeps, runs: TrainingRuns) {
  const { db, config, log, storage, trainer } = d;
  const { fail } = runs;
  const maxWeightsBytes = config.TRAINING_WEIGHTS_MAX_MB * 1024 * 1024;

  /** Downloads, checks and stores a succeeded training's weights, then marks the model a success (once). */
  async function complete(m: CharacterModel, weightsUrl: string): Promise<void> {
    const t = requireTrainer(trainer);
    let key: string | undefined;
    try {
      const weights = unwrapTar(await t.download(weightsUrl, maxWeightsBytes));
      const info = checkSafetensors(weights, maxWeightsBytes);
      key = mediaKey(m.userId, "models", "safetensors");
      await storage.put(key, weights, "application/octet-stream");
      const done = await db.characterModel.updateMany({
        where: { id: m.id, status: "doing" },
        data: {
          status: "success",
          artifactKey: key,
          weightsBytes: info.bytes,
          weightsSha256: crypto.createHash("sha256").update(weights).digest("hex"),
          progress: 100,
          baseModel: t.baseModel,
          finishedAt: new Date(),
          error: null,
        },
      });
      // a webhook and a poll raced here: the other one stored the weights first
      if (done.count === 0) await storage.delete(key);
    } catch (err) {
      if (key) await storage.delete(key).catch(() => undefined);
      // a bad file fails the model; an unreachable file host is left to the next delivery or poll
      if (err instanceof WeightsError) {
        log.warn({ modelId: m.id, err: err.message }, "training result refused");
        await fail(m.id, `The training result failed its checks: ${err.message}`);
        return;
      }
      throw err;
    }
  }

  /** A trainer's word on a job (verified webhook or poll). Anything for a model no longer training changes nothing. */
  async function apply(update: TrainerUpdate): Promise<void> {
    const t = requireTrainer(trainer);
    const m = await db.characterModel.findUnique({ where: { trainer_trainerJobId: { trainer: t.name, trainerJobId: update.jobId } } });
    if (m?.status !== "doing") return;
    switch (update.state) {
      case "running":
        if (update.progress !== undefined)
          await db.characterModel.updateMany({ where: { id: m.id, status: "doing", progress: { lt: update.progress } }, data: { progress: update.progress } });
        return;
      case "succeeded":
        return complete(m, update.weightsUrl!);
      case "failed":
        await fail(m.id, update.error ?? "The training failed");
        return;
      case "cancelled":
        await fail(m.id, "The training was cancelled");
        return;
    }
  }

  return {
    /** A verified webhook delivery; refused signatures throw WebhookRejected and change nothing. */
    async webhook(name: string, rawBody: Buffer, header: (n: string) => string | undefined) {
      if (!trainer || trainer.name !== name) throw HttpError.notFound();
      const update = await trainer.verifyWebhook(rawBody, header);
      await apply(update);
    },

    /**
     * The polling fallback (pg-boss job): asks the trainer for the job's state, fails and refunds a training past its
     * deadline (cancelling it at the trainer), and answers whether the model still needs polling.
     */
    async poll(modelId: number): Promise<"again" | "done"> {
      const m = await db.characterModel.findUnique({ where: { id: modelId } });
      if (m?.status !== "doing" || !trainer) return "done";
      if (m.deadlineAt && m.deadlineAt.getTime() <= Date.now()) {
        if (m.trainerJobId)
          await trainer.cancel(m.trainerJobId).catch((err) => log.warn({ modelId, err: err.message }, "trainer cancel after time-out failed"));
        await fail(m.id, "The training did not finish in time");
        return "done";
      }
      if (m.trainerJobId) {
        try {
          await apply(await trainer.status(m.trainerJobId));
        } catch (err) {
          if (!(err instanceof TrainerError)) throw err;
          log.warn({ modelId, err: err.message }, "trainer status poll failed; will poll again");
        }
      }
      const after = await db.characterModel.findUniqueOrThrow({ where: { id: modelId } });
      return after.status === "doing" ? "again" : "done";
    },

    /** Re-arms the poll (the worker calls this when poll answers "again"). */
    schedulePoll: (modelId: number) => d.queue.sendTrainingPoll(null, modelId, config.TRAINING_POLL_SECONDS),
  };
}
