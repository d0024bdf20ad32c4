import { TRAINING_MESSAGES as M } from "../../contract/training.ts";
import { HttpError } from "../../http/errors.ts";
import { ownModel } from "./training.models.ts";
import type { LoraRef, TrainingDeps } from "./training.deps.ts";
import type { TrainingGpu } from "./training.gpu.ts";

/** What other domains use of a model: generation's LoRA, and a creator page's model and cover. */
export function createTrainingUses(d: TrainingDeps, gpu: TrainingGpu) {
  const { db } = d;
  const own = (userId: number, id: number) => ownModel(db, userId, id);

  return {
    /**
     * The model a generation asks for, if the caller may use it: owner only (anyone else gets 404), trained,
     * not taken down or revoked.
     */
    async loraFor(userId: number, modelId: number, strength = 1): Promise<LoraRef> {
      const m = await own(userId, modelId);
      if (m.state !== "active") throw HttpError.badRequest(M.notUsable);
      if (m.status !== "success" || !m.artifactKey) throw HttpError.badRequest(M.notReady);
      return {
        modelId: m.id,
        path: m.artifactKey,
        sha256: await gpu.weightsSha256({ id: m.id, artifactKey: m.artifactKey, weightsSha256: m.weightsSha256 }),
        triggerWord: m.triggerWord,
        baseModel: m.baseModel,
        strength,
      };
    },

    /** A finished, usable model of the caller's, whose home link a creator page takes (issue 16); null otherwise. */
    async publishable(userId: number, modelId: number): Promise<{ id: number; homeLink: string; name: string } | null> {
      const m = await db.characterModel.findFirst({
        where: { id: modelId, userId, status: "success", state: "active" },
        select: { id: true, homeLink: true, name: true },
      });
      return m;
    },

    /** The cover a creator page shows for its model: a signed thumbnail for browsers and an absolute URL for link previews. */
    async coverFor(modelId: number): Promise<{ url: string; shareUrl: string } | null> {
      const m = await db.characterModel.findUnique({ where: { id: modelId }, select: { coverUploadId: true } });
      return m?.coverUploadId ? d.uploads.pictureOf(m.coverUploadId) : null;
    },

    async coverUploadId(userId: number, modelId: number): Promise<number> {
      const m = await own(userId, modelId);
      if (!m.coverUploadId) throw HttpError.badRequest(M.notReady);
      return m.coverUploadId;
    },
  };
}
