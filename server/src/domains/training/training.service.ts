import crypto from "node:crypto";
import type { Logger } from "pino";
import type { Config } from "../../config.ts";
import { HOME_LINK_MESSAGES } from "../../contract/home-link.ts";
import { PHOTO_VERDICT_MESSAGES, TRAINING_MESSAGES as M, TRAINING_PHOTOS_MIN, type ReviewDecision, type TrainingStatus } from "../../contract/training.ts";
import { isUniqueViolation, type Db, type Tx } from "../../db/client.ts";
import type { CharacterModel } from "../../db/generated/client.ts";
import { HttpError } from "../../http/errors.ts";
import { mediaKey, type MediaStorage } from "../../storage/storage.ts";
import type { GenerationQueue } from "../generation/queue.ts";
import type { EngineLora } from "../generation/engines/engine.ts";
import type { AuditService } from "../audit/audit.service.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import type { UploadsService } from "../uploads/uploads.service.ts";
import type { ConsentChecks, PhotoCheck } from "./consent.ts";
import { prepareDataset } from "./dataset.ts";
import { dHash, hammingDistance, NEAR_DUPLICATE_BITS } from "./dhash.ts";
import type { TrainingSubmitBody } from "./training.schema.ts";
import { TrainerError, type Trainer, type TrainerUpdate } from "./trainers/trainer.ts";
import { checkSafetensors, unwrapTar, WeightsError } from "./weights.ts";

/** SPEC.md §9: training takes about 6 minutes; progress and ETA are estimated from it when a trainer does not tell. */
export const EXPECTED_TRAINING_SECONDS = 360;

/** What generation receives for a usable model: the engines bind it (issue 13); the local engine ignores it. */
export type LoraRef = EngineLora & { modelId: number };

export interface TrainingDeps {
  db: Db;
  config: Config;
  log: Logger;
  credits: CreditsService;
  storage: MediaStorage;
  uploads: UploadsService;
  trainer: Trainer | null;
  consent: ConsentChecks;
  queue: GenerationQueue;
  audit: AuditService;
}

/** A check as the caller sees it: the face box is ours (dataset crops), not the caller's business. */
const withoutBox = ({ box: _box, ...check }: PhotoCheck) => check;

/** A trigger word no prompt would contain by chance: "rv" and eight letters. */
function newTriggerWord(): string {
  const letters = "bcdfghjkmnpqrstvwxz";
  return `rv${Array.from(crypto.randomBytes(8), (b) => letters[b % letters.length]).join("")}`;
}

export function createTrainingService(d: TrainingDeps) {
  const { db, config, log, credits, storage, uploads, trainer, consent, queue, audit } = d;
  const maxWeightsBytes = config.TRAINING_WEIGHTS_MAX_MB * 1024 * 1024;
  const webhookUrl = (name: string) => `${config.publicUrl.replace(/\/+$/, "")}/api/Training/webhook/${name}`;

  function requireTrainer(): Trainer {
    if (!trainer) throw new HttpError(503, M.unavailable);
    return trainer;
  }

  async function view(m: CharacterModel) {
    const elapsed = m.submittedAt ? (Date.now() - m.submittedAt.getTime()) / 1000 : 0;
    const estimated = m.status === "doing" && m.submittedAt ? Math.min(95, Math.round((elapsed / EXPECTED_TRAINING_SECONDS) * 100)) : 0;
    const progress = m.status === "success" ? 100 : Math.max(m.progress, estimated);
    const cover = m.coverUploadId ? await db.upload.findUnique({ where: { id: m.coverUploadId }, select: { thumbKey: true, storageKey: true, state: true } }) : null;
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

  /**
   * Ends a model that is still reviewable or training as failed and refunds its charge — in one transaction with
   * the status change, so however many paths race here (webhook, poll, cancel, time-out) the credits come back once.
   */
  async function fail(modelId: number, error: string, tx?: Tx): Promise<boolean> {
    const run = async (t: Tx) => {
      const moved = await t.characterModel.updateMany({ where: { id: modelId, status: { in: ["doing", "review"] } }, data: { status: "failed", error, finishedAt: new Date() } });
      if (moved.count === 0) return false;
      const m = await t.characterModel.findUniqueOrThrow({ where: { id: modelId } });
      if (m.cost > 0) await credits.refund({ userId: m.userId, amount: m.cost, reason: "training_refund", reference: `model:${m.id}`, idempotencyKey: `training:${m.id}:refund` }, t);
      return true;
    };
    return tx ? run(tx) : db.$transaction(run);
  }

  /** Builds the dataset and hands it to the trainer; a failure fails and refunds the model. */
  async function start(modelId: number): Promise<void> {
    const t = requireTrainer();
    const m = await db.characterModel.findUniqueOrThrow({ where: { id: modelId }, include: { consent: true } });
    if (m.status !== "doing" || m.trainerJobId) return;
    try {
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

  /** Downloads, checks and stores a succeeded training's weights, then marks the model a success (once). */
  async function complete(m: CharacterModel, weightsUrl: string): Promise<void> {
    const t = requireTrainer();
    let key: string | undefined;
    try {
      const weights = unwrapTar(await t.download(weightsUrl, maxWeightsBytes));
      const info = checkSafetensors(weights, maxWeightsBytes);
      key = mediaKey(m.userId, "models", "safetensors");
      await storage.put(key, weights, "application/octet-stream");
      const done = await db.characterModel.updateMany({
        where: { id: m.id, status: "doing" },
        data: { status: "success", artifactKey: key, weightsBytes: info.bytes, progress: 100, baseModel: t.baseModel, finishedAt: new Date(), error: null },
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
    const t = requireTrainer();
    const m = await db.characterModel.findUnique({ where: { trainer_trainerJobId: { trainer: t.name, trainerJobId: update.jobId } } });
    if (!m || m.status !== "doing") return;
    switch (update.state) {
      case "running":
        if (update.progress !== undefined) await db.characterModel.updateMany({ where: { id: m.id, status: "doing", progress: { lt: update.progress } }, data: { progress: update.progress } });
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

  /** Deletes a model's stored files (weights, dataset); the consent record stays for its retention. */
  async function deleteFiles(m: CharacterModel) {
    for (const key of [m.artifactKey, m.datasetKey]) if (key) await storage.delete(key).catch((err) => log.warn({ key, err: err.message }, "could not delete a model file"));
  }

  async function own(userId: number, id: number): Promise<CharacterModel> {
    const m = await db.characterModel.findFirst({ where: { id, userId } });
    if (!m) throw HttpError.notFound();
    return m;
  }

  return {
    view,

    /** Whether training can be used here, and its price (the wizard asks before showing anything). */
    availability() {
      return { available: trainer !== null, message: trainer ? null : M.unavailable, price: config.TRAINING_PRICE, trainer: trainer?.name ?? null, photos_min: TRAINING_PHOTOS_MIN, expected_seconds: EXPECTED_TRAINING_SECONDS };
    },

    async homeLinkFree(homeLink: string): Promise<boolean> {
      const rows = await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM character_models WHERE lower(home_link) = lower(${homeLink})`;
      return rows[0].n === 0;
    },

    takeSelfie: (userId: number, frames: Buffer[]) => {
      requireTrainer();
      return consent.takeSelfie(userId, frames);
    },

    /** The wizard's per-photo feedback, before submit. */
    async checkPhoto(userId: number, selfieId: string, uploadId: number): Promise<PhotoCheck> {
      requireTrainer();
      const selfie = await consent.selfie(userId, selfieId);
      const up = await uploads.own(userId, uploadId, "image", { heldAllowed: true });
      return consent.checkPhoto(selfie, uploadId, () => storage.get(up.storageKey));
    },

    /**
     * Submit (SPEC.md §9: 5 credits, charged only here). Checks everything first — trainer configured, home link
     * free, uploads owned, the selfie and every photo's face — so a refused set costs nothing; then charges and
     * creates the model in one transaction, and hands the dataset to the trainer unless the set waits for review.
     */
    async submit(userId: number, b: TrainingSubmitBody) {
      requireTrainer();
      if (b.idempotency_key) {
        const existing = await db.characterModel.findUnique({ where: { userId_idempotencyKey: { userId, idempotencyKey: b.idempotency_key } } });
        if (existing) return view(existing);
      }
      if (!(await this.homeLinkFree(b.home_link))) throw HttpError.conflict(HOME_LINK_MESSAGES.taken);
      // upload screening (issue 19) holding a photo of the set holds the whole set for a moderator
      const coverUpload = await uploads.own(userId, b.cover_id!, "image", { heldAllowed: true });
      let screeningHeld = coverUpload.screening?.status === "held";
      const selfie = await consent.selfie(userId, b.selfie_id);
      // the cover is the picture a role video starts from (generation's role()), so it must be the consented face too
      const cover = await consent.checkPhoto(selfie, b.cover_id!, () => storage.get(coverUpload.storageKey));
      if (cover.verdict !== "ok") throw new HttpError(400, M.coverRefused, { cover: withoutBox(cover) });
      const checks: PhotoCheck[] = [];
      const seen: bigint[] = [];
      for (const id of b.photo_ids) {
        const up = await uploads.own(userId, id, "image", { heldAllowed: true });
        screeningHeld ||= up.screening?.status === "held";
        const check = await consent.checkPhoto(selfie, id, () => storage.get(up.storageKey));
        // near-duplicates are refused here, before any charge, rather than dropped from the dataset later
        const hash = await dHash(await storage.get(up.storageKey));
        const duplicate = seen.some((h) => hammingDistance(h, hash) <= NEAR_DUPLICATE_BITS);
        seen.push(hash);
        checks.push(duplicate && check.verdict === "ok" ? { ...check, verdict: "duplicate", message: PHOTO_VERDICT_MESSAGES.duplicate } : check);
      }
      if (checks.some((c) => c.verdict !== "ok")) throw new HttpError(400, M.photosRefused, { photos: checks.map(withoutBox) });
      const ages = [...checks.map((c) => c.age), cover.age, ...selfie.ages].filter((a): a is number => typeof a === "number");
      const minAge = ages.length ? Math.min(...ages) : null;
      // Human's descriptor cannot tell everyone apart (decision 171): a weak match waits for a person, like a young face
      const weakestMatch = Math.min(...checks.map((c) => c.similarity ?? 0), cover.similarity ?? 0);
      const held = minAge === null || minAge < config.TRAINING_REVIEW_AGE || weakestMatch < config.TRAINING_FACE_REVIEW || screeningHeld;
      let model: CharacterModel;
      try {
        model = await db.$transaction(async (tx) => {
          const created = await tx.characterModel.create({
            data: {
              userId,
              name: b.name,
              homeLink: b.home_link,
              coverUploadId: b.cover_id!,
              photoUploadIds: b.photo_ids,
              status: held ? "review" : "doing",
              cost: config.TRAINING_PRICE,
              triggerWord: newTriggerWord(),
              trainer: trainer!.name,
              idempotencyKey: b.idempotency_key ?? null,
              deadlineAt: held ? null : new Date(Date.now() + config.TRAINING_TIMEOUT_MINUTES * 60_000),
            },
          });
          if (config.TRAINING_PRICE > 0) {
            await credits.charge({ userId, amount: config.TRAINING_PRICE, reason: "training", reference: `model:${created.id}`, idempotencyKey: `training:${created.id}:charge` }, tx);
          }
          await tx.trainingConsent.create({
            data: {
              modelId: created.id,
              userId,
              selfieKeys: selfie.frameKeys,
              checks: checks as object[],
              minAge,
              decision: held ? "held" : "auto_pass",
              expiresAt: new Date(Date.now() + config.CONSENT_RETENTION_DAYS * 86_400_000),
            },
          });
          if (!held) await queue.sendTrainingPoll(tx, created.id, config.TRAINING_POLL_SECONDS);
          return created;
        });
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        // a double click with the same key, or another user taking the home link in the meantime
        if (b.idempotency_key) {
          const existing = await db.characterModel.findUnique({ where: { userId_idempotencyKey: { userId, idempotencyKey: b.idempotency_key } } });
          if (existing) return view(existing);
        }
        throw HttpError.conflict(HOME_LINK_MESSAGES.taken);
      }
      if (!held) await start(model.id);
      return view(await db.characterModel.findUniqueOrThrow({ where: { id: model.id } }));
    },

    /** SPEC.md §7 getLoraCharacterList: the caller's models, newest first. */
    async list(userId: number, q: { page: number; limit: number; status?: TrainingStatus }) {
      const where = { userId, state: "active" as const, ...(q.status ? { status: q.status } : {}) };
      const [total, rows] = await Promise.all([db.characterModel.count({ where }), db.characterModel.findMany({ where, orderBy: { id: "desc" }, skip: (q.page - 1) * q.limit, take: q.limit })]);
      return { list: await Promise.all(rows.map(view)), total, page: q.page, limit: q.limit };
    },

    async details(userId: number, id: number) {
      return view(await own(userId, id));
    },

    /** The owner stops a training (or a set waiting for review): cancelled at the trainer, failed, refunded once. */
    async cancel(userId: number, id: number) {
      const m = await own(userId, id);
      if (m.status !== "doing" && m.status !== "review") throw HttpError.conflict(M.notCancellable);
      if (m.trainerJobId && trainer) await trainer.cancel(m.trainerJobId).catch((err) => log.warn({ modelId: m.id, err: err.message }, "trainer cancel failed; failing the model anyway"));
      await fail(m.id, "Cancelled by the owner");
      return view(await db.characterModel.findUniqueOrThrow({ where: { id } }));
    },

    /** The owner withdraws consent: the model becomes unusable at once and its files are deleted. */
    async revoke(userId: number, id: number) {
      const m = await own(userId, id);
      if (m.status === "doing" || m.status === "review") await this.cancel(userId, id);
      await db.$transaction([
        db.characterModel.update({ where: { id }, data: { state: "removed", artifactKey: null, datasetKey: null } }),
        db.trainingConsent.updateMany({ where: { modelId: id }, data: { decision: "revoked" } }),
      ]);
      await deleteFiles(m);
      return { id, state: "removed" };
    },

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
      if (!m || m.status !== "doing" || !trainer) return "done";
      if (m.deadlineAt && m.deadlineAt.getTime() <= Date.now()) {
        if (m.trainerJobId) await trainer.cancel(m.trainerJobId).catch((err) => log.warn({ modelId, err: err.message }, "trainer cancel after time-out failed"));
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
    schedulePoll: (modelId: number) => queue.sendTrainingPoll(null, modelId, config.TRAINING_POLL_SECONDS),

    /**
     * The model a generation asks for, if the caller may use it: owner only (anyone else gets 404), trained,
     * not taken down or revoked.
     */
    async loraFor(userId: number, modelId: number, strength = 1): Promise<LoraRef> {
      const m = await own(userId, modelId);
      if (m.state !== "active") throw HttpError.badRequest(M.notUsable);
      if (m.status !== "success" || !m.artifactKey) throw HttpError.badRequest(M.notReady);
      return { modelId: m.id, url: await storage.fetchableUrl(m.artifactKey), path: m.artifactKey, triggerWord: m.triggerWord, baseModel: m.baseModel, strength };
    },

    /** A finished, usable model of the caller's, whose home link a creator page takes (issue 16); null otherwise. */
    async publishable(userId: number, modelId: number): Promise<{ id: number; homeLink: string; name: string } | null> {
      const m = await db.characterModel.findFirst({ where: { id: modelId, userId, status: "success", state: "active" }, select: { id: true, homeLink: true, name: true } });
      return m;
    },

    /** The cover a creator page shows for its model: a signed thumbnail for browsers and an absolute URL for link previews. */
    async coverFor(modelId: number): Promise<{ url: string; shareUrl: string } | null> {
      const m = await db.characterModel.findUnique({ where: { id: modelId }, select: { coverUploadId: true } });
      const cover = m?.coverUploadId ? await db.upload.findUnique({ where: { id: m.coverUploadId }, select: { thumbKey: true, storageKey: true, state: true } }) : null;
      if (!cover || cover.state !== "active") return null;
      const key = cover.thumbKey ?? cover.storageKey;
      return { url: await storage.signedUrl(key), shareUrl: await storage.fetchableUrl(key) };
    },

    async coverUploadId(userId: number, modelId: number): Promise<number> {
      const m = await own(userId, modelId);
      if (!m.coverUploadId) throw HttpError.badRequest(M.notReady);
      return m.coverUploadId;
    },

    /** A moderator's decision on a held set, audited: approve sends it to the trainer, reject fails and refunds it. */
    async review(staffId: number, modelId: number, decision: ReviewDecision, reason?: string) {
      const m = await db.characterModel.findUnique({ where: { id: modelId } });
      if (!m) throw HttpError.notFound();
      if (m.status !== "review") throw HttpError.conflict("This training set is not waiting for review");
      if (decision === "reject" && !reason) throw HttpError.badRequest("Please enter a reason");
      await db.$transaction(async (tx) => {
        if (decision === "approve") {
          const moved = await tx.characterModel.updateMany({ where: { id: modelId, status: "review" }, data: { status: "doing", deadlineAt: new Date(Date.now() + config.TRAINING_TIMEOUT_MINUTES * 60_000) } });
          if (moved.count === 0) throw HttpError.conflict("This training set is not waiting for review");
          await queue.sendTrainingPoll(tx, modelId, config.TRAINING_POLL_SECONDS);
        } else if (!(await fail(modelId, `Rejected in review: ${reason}`, tx))) {
          throw HttpError.conflict("This training set is not waiting for review");
        }
        await tx.trainingConsent.update({ where: { modelId }, data: { decision: decision === "approve" ? "approved" : "rejected", reviewedBy: staffId, reviewReason: reason ?? null, reviewedAt: new Date() } });
        await audit.record(tx, { staffId, action: `training_${decision}`, resource: "CharacterModel", resourceId: String(modelId), before: { status: "review" }, after: { status: decision === "approve" ? "doing" : "failed" }, reason: reason ?? null });
      });
      if (decision === "approve") await start(modelId).catch((err) => log.warn({ modelId, err: err.message }, "approved training could not be submitted"));
      return view(await db.characterModel.findUniqueOrThrow({ where: { id: modelId } }));
    },

    /** Takes a model down (moderator): unusable at once, files deleted, audited. */
    async takedown(staffId: number, modelId: number, reason: string) {
      const m = await db.characterModel.findUnique({ where: { id: modelId } });
      if (!m) throw HttpError.notFound();
      if (m.state === "removed") throw HttpError.conflict("This model is already taken down");
      if (m.status === "doing" || m.status === "review") {
        if (m.trainerJobId && trainer) await trainer.cancel(m.trainerJobId).catch(() => undefined);
        await fail(modelId, "Taken down");
      }
      await db.$transaction(async (tx) => {
        await tx.characterModel.update({ where: { id: modelId }, data: { state: "removed", artifactKey: null, datasetKey: null } });
        await audit.record(tx, { staffId, action: "takedown", resource: "CharacterModel", resourceId: String(modelId), before: { state: m.state }, after: { state: "removed" }, reason });
      });
      await deleteFiles(m);
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

export type TrainingService = ReturnType<typeof createTrainingService>;
