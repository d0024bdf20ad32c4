import type { ReviewDecision } from "../../contract/training.ts";
import { HttpError } from "../../http/errors.ts";
import type { TrainingModels } from "./training.models.ts";
import type { TrainingRuns } from "./training.runs.ts";
import type { TrainingDeps } from "./training.deps.ts";

const NOT_IN_REVIEW = "This training set is not waiting for review";

/** What moderators do to models (held sets, takedowns), audited; and the consent records' retention. */
export function createTrainingModeration(d: TrainingDeps, models: TrainingModels, runs: TrainingRuns) {
  const { db, config, log, storage, trainer, queue, audit } = d;

  return {
    /** A moderator's decision on a held set, audited: approve sends it to the trainer, reject fails and refunds it. */
    async review(staffId: number, modelId: number, decision: ReviewDecision, reason?: string) {
      const m = await db.characterModel.findUnique({ where: { id: modelId } });
      if (!m) throw HttpError.notFound();
      if (m.status !== "review") throw HttpError.conflict(NOT_IN_REVIEW);
      if (decision === "reject" && !reason) throw HttpError.badRequest("Please enter a reason");
      await db.$transaction(async (tx) => {
        if (decision === "approve") {
          const moved = await tx.characterModel.updateMany({
            where: { id: modelId, status: "review" },
            data: { status: "doing", deadlineAt: new Date(Date.now() + config.TRAINING_TIMEOUT_MINUTES * 60_000) },
          });
          if (moved.count === 0) throw HttpError.conflict(NOT_IN_REVIEW);
          await queue.sendTrainingPoll(tx, modelId, config.TRAINING_POLL_SECONDS);
        } else if (!(await runs.fail(modelId, `Rejected in review: ${reason}`, tx))) {
          throw HttpError.conflict(NOT_IN_REVIEW);
        }
        await tx.trainingConsent.update({
          where: { modelId },
          data: { decision: decision === "approve" ? "approved" : "rejected", reviewedBy: staffId, reviewReason: reason ?? null, reviewedAt: new Date() },
        });
        await audit.record(tx, {
          staffId,
          action: `training_${decision}`,
          resource: "CharacterModel",
          resourceId: String(modelId),
          before: { status: "review" },
          after: { status: decision === "approve" ? "doing" : "failed" },
          reason: reason ?? null,
        });
      });
      if (decision === "approve") await runs.start(modelId).catch((err) => log.warn({ modelId, err: err.message }, "approved training could not be submitted"));
      return models.view(await db.characterModel.findUniqueOrThrow({ where: { id: modelId } }));
    },

    /** Takes a model down (moderator): unusable at once, files deleted, audited. */
    async takedown(staffId: number, modelId: number, reason: string) {
      const m = await db.characterModel.findUnique({ where: { id: modelId } });
      if (!m) throw HttpError.notFound();
      if (m.state === "removed") throw HttpError.conflict("This model is already taken down");
      if (m.status === "doing" || m.status === "review") {
        if (m.trainerJobId && trainer) await trainer.cancel(m.trainerJobId).catch(() => undefined);
        await runs.fail(modelId, "Taken down");
      }
      await db.$transaction(async (tx) => {
        await tx.characterModel.update({ where: { id: modelId }, data: { state: "removed", artifactKey: null, datasetKey: null } });
        await audit.record(tx, {
          staffId,
          action: "takedown",
          resource: "CharacterModel",
          resourceId: String(modelId),
          before: { state: m.state },
          after: { state: "removed" },
          reason,
        });
      });
      await runs.deleteFiles(m);
      return { id: modelId, state: "removed" };
    },

    /** Consent records past their retention: selfie frames deleted, row removed (the model row keeps its history). */
    async expireConsents(): Promise<number> {
      const old = await db.trainingConsent.findMany({ where: { expiresAt: { lt: new Date() } }, take: 100 });
      for (const c of old) {
        for (const key of c.selfieKeys) await storage.delete(key).catch(() => undefined);
        await db.trainingConsent.delete({ where: { id: c.id } });
      }
      return old.length;
    },
  };
}
