import type { Db } from "../../db/client.ts";
import { matching, pageOf, type ListParams } from "../../db/paging.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import type { PhotoCheck } from "./consent.ts";
import type { ModelFilter } from "./training.admin.schema.ts";

/**
 * What moderators read about character models (the console's review queue and model list). The consent record —
 * selfie frames, every photo with its face check and apparent age — appears only here, behind the CASL
 * `TrainingConsent` permission, with short-lived signed URLs.
 */
export function createTrainingAdminService(db: Db, storage: MediaStorage) {
  const signed = (key: string) => storage.signedUrl(key, 15 * 60);

  return {
    async list(params: ListParams<ModelFilter>) {
      const f = params.filter;
      const where = {
        ...matching(f, ["userId", "status", "state"]),
        ...(f.q ? { OR: [{ name: { contains: f.q, mode: "insensitive" } }, { homeLink: { contains: f.q, mode: "insensitive" } }] } : {}),
      };
      const page = await pageOf(db.characterModel, params, where, { include: { consent: { select: { minAge: true, decision: true } } } });
      return {
        ...page,
        rows: page.rows.map(({ consent, ...m }: any) => ({
          ...m,
          minAge: consent?.minAge ?? null,
          decision: consent?.decision ?? null,
          trainerJobId: undefined,
          idempotencyKey: undefined,
        })),
      };
    },

    async get(id: number) {
      const m = await db.characterModel.findUnique({ where: { id }, include: { consent: true } });
      if (!m) return null;
      const c = m.consent;
      const checks = (c?.checks ?? []) as unknown as PhotoCheck[];
      const uploads = await db.upload.findMany({ where: { id: { in: [...m.photoUploadIds, ...(m.coverUploadId ? [m.coverUploadId] : [])] } } });
      const byId = new Map(uploads.map((u) => [u.id, u]));
      const photoUrl = async (uploadId: number) => {
        const u = byId.get(uploadId);
        return u ? signed(u.thumbKey ?? u.storageKey) : null;
      };
      return {
        id: m.id,
        userId: m.userId,
        name: m.name,
        homeLink: m.homeLink,
        status: m.status,
        state: m.state,
        cost: m.cost,
        error: m.error,
        trainer: m.trainer,
        triggerWord: m.triggerWord,
        weightsBytes: m.weightsBytes,
        createdAt: m.createdAt,
        finishedAt: m.finishedAt,
        coverUrl: m.coverUploadId ? await photoUrl(m.coverUploadId) : null,
        consent: c
          ? {
              decision: c.decision,
              minAge: c.minAge,
              reviewedBy: c.reviewedBy,
              reviewReason: c.reviewReason,
              reviewedAt: c.reviewedAt,
              expiresAt: c.expiresAt,
              selfieUrls: await Promise.all(c.selfieKeys.map(signed)),
              photos: await Promise.all(
                m.photoUploadIds.map(async (uploadId) => ({
                  uploadId,
                  url: await photoUrl(uploadId),
                  check: checks.find((x) => x.upload_id === uploadId) ?? null,
                })),
              ),
            }
          : null,
      };
    },
  };
}

export type TrainingAdminService = ReturnType<typeof createTrainingAdminService>;
