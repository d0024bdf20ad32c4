import crypto from "node:crypto";
import { HOME_LINK_MESSAGES } from "../../contract/home-link.ts";
import { PHOTO_VERDICT_MESSAGES, TRAINING_MESSAGES as M, TRAINING_PHOTOS_MIN } from "../../contract/training.ts";
import { isUniqueViolation } from "../../db/client.ts";
import type { CharacterModel } from "../../db/generated/client.ts";
import { HttpError } from "../../http/errors.ts";
import type { PhotoCheck, SelfieRecord } from "./consent.ts";
import { dHash, hammingDistance, NEAR_DUPLICATE_BITS } from "./dhash.ts";
import { EXPECTED_TRAINING_SECONDS, type TrainingModels } from "./training.models.ts";
import { requireTrainer, type TrainingRuns } from "./training.runs.ts";
import type { TrainingSubmitBody } from "./training.schema.ts";
import type { TrainingDeps } from "./training.deps.ts";

/** A check as the caller sees it: the face box is ours (dataset crops), not the caller's business. */
const withoutBox = ({ box: _box, ...check }: PhotoCheck) => check;

/** A trigger word no prompt would contain by chance: "rv" and eight letters. */
function newTriggerWord(): string {
  const letters = "bcdfghjkmnpqrstvwxz";
  return `rv${Array.from(crypto.randomBytes(8), (b) => letters[b % letters.length]).join("")}`;
}

/** A training set that passed its checks: what the model and its consent record are created from. */
interface CheckedSet {
  selfie: SelfieRecord;
  checks: PhotoCheck[];
  minAge: number | null;
  /** waits for a moderator before it goes to the trainer */
  held: boolean;
}

/** What checking a set needs. */
type SetChecks = Pick<TrainingDeps, "config" | "uploads" | "consent" | "storage">;

/** Each photo's face check against the selfie, near-duplicates of an earlier photo refused; and whether screening holds one. */
async function checkPhotos(d: SetChecks, userId: number, selfie: SelfieRecord, photoIds: number[]): Promise<{ checks: PhotoCheck[]; screeningHeld: boolean }> {
  const { uploads, consent, storage } = d;
  const checks: PhotoCheck[] = [];
  const seen: bigint[] = [];
  let screeningHeld = false;
  for (const id of photoIds) {
    const up = await uploads.own(userId, id, "image", { heldAllowed: true });
    screeningHeld ||= up.screening?.status === "held";
    const check = await consent.checkPhoto(selfie, id, () => storage.get(up.storageKey));
    // near-duplicates are refused here, before any charge, rather than dropped from the dataset later
    const hash = await dHash(await storage.get(up.storageKey));
    const duplicate = seen.some((h) => hammingDistance(h, hash) <= NEAR_DUPLICATE_BITS);
    seen.push(hash);
    checks.push(duplicate && check.verdict === "ok" ? { ...check, verdict: "duplicate", message: PHOTO_VERDICT_MESSAGES.duplicate } : check);
  }
  return { checks, screeningHeld };
}

/** The cover, the selfie and every photo checked; refused (400) with each check when any fails. */
async function checkSet(d: SetChecks, userId: number, b: TrainingSubmitBody): Promise<CheckedSet> {
  const { config, uploads, consent, storage } = d;
  // upload screening (issue 19) holding a photo of the set holds the whole set for a moderator
  const coverUpload = await uploads.own(userId, b.cover_id!, "image", { heldAllowed: true });
  const selfie = await consent.selfie(userId, b.selfie_id);
  // the cover is the picture a role video starts from (generation's role()), so it must be the consented face too
  const cover = await consent.checkPhoto(selfie, b.cover_id!, () => storage.get(coverUpload.storageKey));
  if (cover.verdict !== "ok") throw new HttpError(400, M.coverRefused, { cover: withoutBox(cover) });
  const { checks, screeningHeld } = await checkPhotos(d, userId, selfie, b.photo_ids);
  if (checks.some((c) => c.verdict !== "ok")) throw new HttpError(400, M.photosRefused, { photos: checks.map(withoutBox) });
  const ages = [...checks.map((c) => c.age), cover.age, ...selfie.ages].filter((a): a is number => typeof a === "number");
  const minAge = ages.length ? Math.min(...ages) : null;
  // Human's descriptor cannot tell everyone apart (decision 171): a weak match waits for a person, like a young face
  const weakestMatch = Math.min(...checks.map((c) => c.similarity ?? 0), cover.similarity ?? 0);
  const held =
    minAge === null ||
    minAge < config.TRAINING_REVIEW_AGE ||
    weakestMatch < config.TRAINING_FACE_REVIEW ||
    coverUpload.screening?.status === "held" ||
    screeningHeld;
  return { selfie, checks, minAge, held };
}

/** The training wizard: availability, the live selfie, each photo's check, and the submit that charges. */
export function createTrainingSubmit(d: TrainingDeps, models: TrainingModels, runs: TrainingRuns) {
  const { db, config, credits, storage, uploads, trainer, consent, queue } = d;

  /** The model an earlier submit with the same idempotency key created, if any. */
  async function earlierSubmit(userId: number, key: string | undefined): Promise<CharacterModel | null> {
    if (!key) return null;
    return db.characterModel.findUnique({ where: { userId_idempotencyKey: { userId, idempotencyKey: key } } });
  }

  /** Creates the model, charges for it and records the consent in one transaction; a set not held is polled for. */
  async function createModel(userId: number, b: TrainingSubmitBody, set: CheckedSet): Promise<CharacterModel> {
    return db.$transaction(async (tx) => {
      const created = await tx.characterModel.create({
        data: {
          userId,
          name: b.name,
          homeLink: b.home_link,
          coverUploadId: b.cover_id!,
          photoUploadIds: b.photo_ids,
          status: set.held ? "review" : "doing",
          cost: config.TRAINING_PRICE,
          triggerWord: newTriggerWord(),
          trainer: trainer!.name,
          idempotencyKey: b.idempotency_key ?? null,
          deadlineAt: set.held ? null : new Date(Date.now() + config.TRAINING_TIMEOUT_MINUTES * 60_000),
        },
      });
      if (config.TRAINING_PRICE > 0) {
        await credits.charge(
          { userId, amount: config.TRAINING_PRICE, reason: "training", reference: `model:${created.id}`, idempotencyKey: `training:${created.id}:charge` },
          tx,
        );
      }
      await tx.trainingConsent.create({
        data: {
          modelId: created.id,
          userId,
          selfieKeys: set.selfie.frameKeys,
          checks: set.checks as object[],
          minAge: set.minAge,
          decision: set.held ? "held" : "auto_pass",
          expiresAt: new Date(Date.now() + config.CONSENT_RETENTION_DAYS * 86_400_000),
        },
      });
      if (!set.held) await queue.sendTrainingPoll(tx, created.id, config.TRAINING_POLL_SECONDS);
      return created;
    });
  }

  return {
    /** Whether training can be used here, and its price (the wizard asks before showing anything). */
    availability() {
      return {
        available: trainer !== null,
        message: trainer ? null : M.unavailable,
        price: config.TRAINING_PRICE,
        trainer: trainer?.name ?? null,
        photos_min: TRAINING_PHOTOS_MIN,
        expected_seconds: EXPECTED_TRAINING_SECONDS,
      };
    },

    takeSelfie: (userId: number, frames: Buffer[]) => {
      requireTrainer(trainer);
      return consent.takeSelfie(userId, frames);
    },

    /** The wizard's per-photo feedback, before submit. */
    async checkPhoto(userId: number, selfieId: string, uploadId: number): Promise<PhotoCheck> {
      requireTrainer(trainer);
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
      requireTrainer(trainer);
      const earlier = await earlierSubmit(userId, b.idempotency_key);
      if (earlier) return models.view(earlier);
      if (!(await models.homeLinkFree(b.home_link))) throw HttpError.conflict(HOME_LINK_MESSAGES.taken);
      const set = await checkSet(d, userId, b);
      let model: CharacterModel;
      try {
        model = await createModel(userId, b, set);
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        // a double click with the same key, or another user taking the home link in the meantime
        const existing = await earlierSubmit(userId, b.idempotency_key);
        if (existing) return models.view(existing);
        throw HttpError.conflict(HOME_LINK_MESSAGES.taken);
      }
      if (!set.held) await runs.start(model.id);
      return models.view(await db.characterModel.findUniqueOrThrow({ where: { id: model.id } }));
    },
  };
}
