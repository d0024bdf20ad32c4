import crypto from "node:crypto";
import type { Config } from "../../config.ts";
import { PHOTO_VERDICT_MESSAGES, TRAINING_MESSAGES as M, type PhotoVerdict } from "../../contract/training.ts";
import { faceSimilarity, type FaceAnalyser, type FaceBox } from "../../faces/faces.ts";
import { HttpError } from "../../http/errors.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import { checkedImage } from "../uploads/uploads.service.ts";

/** The head must turn at least this much (radians, ~14°) between the two selfie frames: a printed photo does not turn. */
export const LIVENESS_MIN_YAW = 0.25;

/**
 * Each selfie frame's liveness score (Human's liveness model, 0..1) must reach this: a face replayed on a screen
 * scores lower. Measured on the fixtures (decision 170): real photos 0.80-1.00, simulated screen replays 0.23-1.00.
 */
export const LIVENESS_MIN_SCORE = 0.7;

/** What a live selfie left for the checks (kept in storage under the user's consent folder). */
export interface SelfieRecord {
  id: string;
  userId: number;
  frameKeys: string[];
  yaws: number[];
  ages: number[];
  /** Each frame's liveness (the gate) and anti-spoof score (recorded for moderators only: it did not separate, 170). */
  live?: (number | null)[];
  real?: (number | null)[];
  /** The frame facing the camera most squarely: photos are compared with it. */
  descriptor: number[];
  createdAt: string;
}

export interface PhotoCheck {
  upload_id: number;
  verdict: PhotoVerdict;
  message: string;
  faces: number;
  similarity: number | null;
  age: number | null;
  box: FaceBox | null;
}

/** Face checks remembered per (selfie, upload): the wizard checks each photo as it is added and submit checks the set again. */
const CHECK_CACHE_SIZE = 2_000;

const selfieKey = (userId: number, id: string, file: string) => `u/${userId}/consent/${id}/${file}`;

/**
 * Likeness consent, verified (docs/decisions/092): a live selfie of two frames with different head turns, and every
 * training photo showing exactly one face that matches it. Apparent ages travel with the result so a young-looking
 * set can be held for a moderator.
 */
export function createConsentChecks(deps: { config: Config; storage: MediaStorage; faces: FaceAnalyser }) {
  const { config, storage, faces } = deps;
  // an optimisation only: a miss (another instance, a restart) just runs the model again
  const recent = new Map<string, PhotoCheck>();

  return {
    /** Checks two camera frames and keeps them as the start of a consent record; answers its id. */
    async takeSelfie(userId: number, frames: Buffer[]): Promise<{ selfie_id: string }> {
      if (frames.length !== 2) throw HttpError.badRequest(M.selfieRequired);
      const images = await Promise.all(frames.map((f) => checkedImage({ buffer: f, size: f.length })));
      const found = [];
      for (const img of images) {
        const fs = await faces.detect(img.data, { liveness: true });
        if (fs.length !== 1) throw HttpError.badRequest(M.selfieNoFace);
        found.push(fs[0]);
      }
      const [a, b] = found;
      // a face replayed from a screen fails here, whatever the head does
      if (found.some((f) => f.live === null || f.live < LIVENESS_MIN_SCORE)) throw HttpError.badRequest(M.livenessFailed);
      if (a.yaw === null || b.yaw === null || Math.abs(a.yaw - b.yaw) < LIVENESS_MIN_YAW) throw HttpError.badRequest(M.livenessFailed);
      // both frames must be the same person, or the turn could come from swapping pictures
      if (faceSimilarity(a.descriptor, b.descriptor) < config.TRAINING_FACE_MATCH) throw HttpError.badRequest(M.livenessFailed);
      const id = crypto.randomUUID();
      const frameKeys = [selfieKey(userId, id, "frame-1.jpg"), selfieKey(userId, id, "frame-2.jpg")];
      await Promise.all(images.map((img, i) => storage.put(frameKeys[i], img.data, img.mime)));
      const front = Math.abs(a.yaw) <= Math.abs(b.yaw) ? a : b;
      const record: SelfieRecord = {
        id,
        userId,
        frameKeys,
        yaws: [a.yaw, b.yaw],
        ages: found.map((f) => f.age ?? 0),
        live: found.map((f) => f.live),
        real: found.map((f) => f.real),
        descriptor: front.descriptor,
        createdAt: new Date().toISOString(),
      };
      await storage.put(selfieKey(userId, id, "selfie.json"), Buffer.from(JSON.stringify(record)), "application/json");
      return { selfie_id: id };
    },

    /** The caller's own selfie record; another user's id reads nothing (the key carries the owner). */
    async selfie(userId: number, id: string | undefined): Promise<SelfieRecord> {
      if (!id) throw HttpError.badRequest(M.selfieRequired);
      const key = selfieKey(userId, id, "selfie.json");
      if (!(await storage.exists(key))) throw HttpError.badRequest(M.selfieRequired);
      return JSON.parse((await storage.get(key)).toString("utf8")) as SelfieRecord;
    },

    /** One photo against the selfie: exactly one face, and that face the selfie's. Uploads never change, so a result is kept. */
    async checkPhoto(selfie: SelfieRecord, uploadId: number, image: () => Promise<Buffer>): Promise<PhotoCheck> {
      const cacheKey = `${selfie.id}:${uploadId}`;
      const known = recent.get(cacheKey);
      if (known) return known;
      const check = await this.checkFaces(selfie, uploadId, await image());
      if (recent.size >= CHECK_CACHE_SIZE) recent.delete(recent.keys().next().value!);
      recent.set(cacheKey, check);
      return check;
    },

    async checkFaces(selfie: SelfieRecord, uploadId: number, image: Buffer): Promise<PhotoCheck> {
      const found = await faces.detect(image);
      const verdict = (v: PhotoVerdict, extra: Partial<PhotoCheck> = {}): PhotoCheck => ({
        upload_id: uploadId,
        verdict: v,
        message: PHOTO_VERDICT_MESSAGES[v],
        faces: found.length,
        similarity: null,
        age: null,
        box: null,
        ...extra,
      });
      if (found.length === 0) return verdict("no_face");
      if (found.length > 1) return verdict("several_faces");
      const face = found[0];
      const similarity = Math.round(faceSimilarity(selfie.descriptor, face.descriptor) * 1000) / 1000;
      const details = { similarity, age: face.age === null ? null : Math.round(face.age * 10) / 10, box: face.box };
      return similarity < config.TRAINING_FACE_MATCH ? verdict("other_person", details) : verdict("ok", details);
    },
  };
}

export type ConsentChecks = ReturnType<typeof createConsentChecks>;
