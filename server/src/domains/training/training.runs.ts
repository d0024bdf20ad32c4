import { TRAINING_MESSAGES as M, TRAINING_PHOTOS_MIN } from "../../contract/training.ts";
import type { Tx } from "../../db/client.ts";
import type { CharacterModel } from "../../db/generated/client.ts";
import { HttpError } from "../../http/errors.ts";
import { mediaKey } from "../../storage/storage.ts";
import type { PhotoCheck } from "./consent.ts";
import { prepareDataset } from "./dataset.ts";
import type { TrainingDeps } from "./training.deps.ts";
import type { TrainingGpu } from "./training.gpu.ts";
import { TrainerError, type Trainer } from "./trainers/trainer.ts";

/** The configured trainer; 503 when there is none. */
export function requireTrainer(trainer: Trainer | null): Trainer {
  if (!trainer) throw new HttpError(503, M.unavailable);
  return trainer;
}

/** A model's run at the trainer: its dataset handed over, or the model failed and refunded. */
export function createTrainingRuns(d: TrainingDeps, gpu: TrainingGpu) {
  const { db, config, log, credits, storage, uploads, trainer } = d;
  const webhookUrl = (name: string) => `${config.publicUrl.replace(/\/+$/, "")}/api/Training/webhook/${name}`;

  /**
   * Ends a model that is still reviewable or training as failed and refunds its charge — in one transaction with
   * the status change, so however many paths race here (webhook, poll, cancel, time-out) the credits come back once.
   */
  async function fail(modelId: number, error: string, tx?: Tx): Promise<boolean> {
    const run = async (t: Tx) => {
      const moved = await t.characterModel.updateMany({
        where: { id: modelId, status: { in: ["doing", "review"] } },
        data: { status: "failed", error, finishedAt: new Date() },
      });
      if (moved.count === 0) return false;
      const m = await t.characterModel.findUniqueOrThrow({ where: { id: modelId } });
      if (m.cost > 0)
        await credits.refund(
          { userId: m.userId, amount: m.cost, reason: "training_refund", reference: `model:${m.id}`, idempotencyKey: `training:${m.id}:refund` },
          t,
        );
      return true;
    };
    return tx ? run(tx) : db.$transaction(run);
  }

  /** Builds the model's dataset, stores it and answers the URL the trainer fetches it from. */
  async function storeDataset(t: Trainer, m: CharacterModel & { consent: { checks: unknown } | null }): Promise<string> {
    const checks = (m.consent?.checks ?? []) as unknown as PhotoCheck[];
    const photos = [];
    for (const id of m.photoUploadIds) {
      const up = await uploads.own(m.userId, id, "image", { heldAllowed: true });
      photos.push({ uploadId: id, image: await storage.get(up.storageKey), face: checks.find((c) => c.upload_id === id)?.box ?? undefined });
    }
    const dataset = await prepareDataset(photos, { triggerWord: m.triggerWord, resolution: t.resolution, baseModel: t.baseModel });
    if (dataset.kept.length < TRAINING_PHOTOS_MIN) throw new TrainerError("too few distinct photos");
    const datasetKey = mediaKey(m.userId, "training", "zip");
    await storage.put(datasetKey, dataset.zip, "application/zip");
    const datasetUrl = await storage.fetchableUrl(datasetKey, config.TRAINING_TIMEOUT_MINUTES * 60);
    await db.characterModel.update({ where: { id: m.id }, data: { datasetKey } });
    return datasetUrl;
  }

  /** Builds the dataset and hands it to the trainer; a failure fails and refunds the model. */
  async function start(modelId: number): Promise<void> {
    const t = requireTrainer(trainer);
    const m = await db.characterModel.findUniqueOrThrow({ where: { id: modelId }, include: { consent: true } });
    if (m.status !== "doing" || m.trainerJobId) return;
    try {
      const datasetUrl = await storeDataset(t, m);
      const { jobId } = await t.submit({ datasetUrl, triggerWord: m.triggerWord, webhookUrl: webhookUrl(t.name) });
      const now = new Date();
      await db.characterModel.updateMany({
        where: { id: m.id, status: "doing" },
        data: { trainerJobId: jobId, submittedAt: now, deadlineAt: new Date(now.getTime() + config.TRAINING_TIMEOUT_MINUTES * 60_000) },
      });
    } catch (err) {
      log.warn({ modelId, err: err instanceof Error ? err.message : String(err) }, "training submission failed");
      await fail(m.id, M.submitFailed);
      throw new HttpError(502, M.submitFailed);
    }
  }

  return {
    fail,
    start,

    /**
     * Deletes a model's stored files (weights, dataset) and the GPU servers' copies of its weights (decision 330); the
     * consent record stays for its retention.
     */
    async deleteFiles(m: CharacterModel) {
      for (const key of [m.artifactKey, m.datasetKey])
        if (key) await storage.delete(key).catch((err) => log.warn({ key, err: err.message }, "could not delete a model file"));
      await gpu.evictFromGpus([m.weightsSha256]);
    },
  };
}

export type TrainingRuns = ReturnType<typeof createTrainingRuns>;
