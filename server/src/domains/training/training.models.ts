import { TRAINING_MESSAGES as M, type TrainingStatus } from "../../contract/training.ts";
import type { Db } from "../../db/client.ts";
import type { CharacterModel } from "../../db/generated/client.ts";
import { HttpError } from "../../http/errors.ts";
import { modelsWithHomeLink } from "./training.queries.ts";
import type { TrainingRuns } from "./training.runs.ts";
import type { TrainingDeps } from "./training.deps.ts";

/** SPEC.md §9: training takes about 6 minutes; progress and ETA are estimated from it when a trainer does not tell. */
export const EXPECTED_TRAINING_SECONDS = 360;

/** One of the caller's models; anyone else's is 404. */
export async function ownModel(db: Db, userId: number, id: number): Promise<CharacterModel> {
  const m = await db.characterModel.findFirst({ where: { id, userId } });
  if (!m) throw HttpError.notFound();
  return m;
}

/** A model as its owner sees it, and what the owner does with their models: read, cancel, revoke. */
export function createTrainingModels(d: TrainingDeps, runs: TrainingRuns) {
  const { db, log, storage, trainer } = d;
  const own = (userId: number, id: number) => ownModel(db, userId, id);

  async function view(m: CharacterModel) {
    const elapsed = m.submittedAt ? (Date.now() - m.submittedAt.getTime()) / 1000 : 0;
    const estimated = m.status === "doing" && m.submittedAt ? Math.min(95, Math.round((elapsed / EXPECTED_TRAINING_SECONDS) * 100)) : 0;
    const progress = m.status === "success" ? 100 : Math.max(m.progress, estimated);
    const cover = m.coverUploadId
      ? await db.upload.findUnique({ where: { id: m.coverUploadId }, select: { thumbKey: true, storageKey: true, state: true } })
      : null;
    return {
      id: m.id,
      name: m.name,
      home_link: m.homeLink,
      status: m.status as TrainingStatus,
      usable: m.status === "success" && m.state === "active",
      state: m.state,
      progress,
      eta_seconds: m.status === "doing" ? Math.max(0, Math.round(EXPECTED_TRAINING_SECONDS - elapsed)) : 0,
      cover_url: cover && cover.state === "active" ? await storage.signedUrl(cover.thumbKey ?? cover.storageKey) : null,
      cost: m.cost,
      error: m.error,
      trigger_word: m.status === "success" ? m.triggerWord : null,
      created_at: m.createdAt.toISOString(),
      finished_at: m.finishedAt?.toISOString() ?? null,
    };
  }

  /** The owner stops a training (or a set waiting for review): cancelled at the trainer, failed, refunded once. */
  async function cancel(userId: number, id: number) {
    const m = await own(userId, id);
    if (m.status !== "doing" && m.status !== "review") throw HttpError.conflict(M.notCancellable);
    if (m.trainerJobId && trainer)
      await trainer.cancel(m.trainerJobId).catch((err) => log.warn({ modelId: m.id, err: err.message }, "trainer cancel failed; failing the model anyway"));
    await runs.fail(m.id, "Cancelled by the owner");
    return view(await db.characterModel.findUniqueOrThrow({ where: { id } }));
  }

  return {
    view,
    cancel,

    async homeLinkFree(homeLink: string): Promise<boolean> {
      const [{ n }] = await modelsWithHomeLink.rows(db, { homeLink });
      return n === 0;
    },

    /** SPEC.md §7 getLoraCharacterList: the caller's models, newest first. */
    async list(userId: number, q: { page: number; limit: number; status?: TrainingStatus }) {
      const where = { userId, state: "active" as const, ...(q.status ? { status: q.status } : {}) };
      const [total, rows] = await Promise.all([
        db.characterModel.count({ where }),
        db.characterModel.findMany({ where, orderBy: { id: "desc" }, skip: (q.page - 1) * q.limit, take: q.limit }),
      ]);
      return { list: await Promise.all(rows.map(view)), total, page: q.page, limit: q.limit };
    },

    async details(userId: number, id: number) {
      return view(await own(userId, id));
    },

    /** The owner withdraws consent: the model becomes unusable at once and its files are deleted. */
    async revoke(userId: number, id: number) {
      const m = await own(userId, id);
      if (m.status === "doing" || m.status === "review") await cancel(userId, id);
      await db.$transaction([
        db.characterModel.update({ where: { id }, data: { state: "removed", artifactKey: null, datasetKey: null } }),
        db.trainingConsent.updateMany({ where: { modelId: id }, data: { decision: "revoked" } }),
      ]);
      await runs.deleteFiles(m);
      return { id, state: "removed" };
    },
  };
}

export type TrainingModels = ReturnType<typeof createTrainingModels>;
