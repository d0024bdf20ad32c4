import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Logger } from "pino";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import { measuredDurationSec } from "../../storage/media-tools.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import { SCREENING_MESSAGES, type BlockHitKind, type ScreeningRefusal } from "../../contract/screening.ts";
import { sampleFrames } from "./frames.ts";
import { BAND_BITS, bandNeighbours, bandsOf, enrolmentHashes, perceptualHash, toSigned } from "./phash.ts";
import { closestBlockedHash } from "./screening.queries.ts";

/**
 * Two hashes this close (differing bits out of 64) are the same picture: re-encoded, resized and crops of a few per
 * cent measured 0-8 on the fixtures, different photos ≥ 10 (docs/decisions/142). Must stay ≤ 9, the most the
 * band lookup below is exact for.
 */
export const MATCH_BITS = 8;
/** Each band is searched within this many flipped bits: 5 bands x radius 1 finds every hash within 9 bits (pigeonhole). */
const BAND_RADIUS = 1;

export interface BlockMatch {
  blockedHashId: number;
  distance: number;
  targetType: string | null;
  targetId: number | null;
}

const VIDEO_EXT = /\.(mp4|webm|mov|m4v)$/i;

/** Hashes of a stored file: the image itself (with its crop variants when it is enrolled), or sampled frames of a video. */
export async function hashesOfStored(storage: MediaStorage, key: string, o: { enrol: boolean }): Promise<bigint[]> {
  const data = await storage.get(key);
  if (!VIDEO_EXT.test(key)) return o.enrol ? enrolmentHashes(data) : [await perceptualHash(data)];
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-blocklist-"));
  try {
    const file = path.join(dir, `source${path.extname(key)}`);
    await fs.writeFile(file, data);
    const frames = await sampleFrames(file, await measuredDurationSec(file), dir);
    return Promise.all(frames.map((f) => perceptualHash(f)));
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Uploads and generated outputs looked up in the blocklist: a match is refused, and the hit linked to its case. */
export function createBlocklistMatching(deps: { db: Db; storage: MediaStorage; log: Logger }) {
  const { db, storage, log } = deps;

  /** The closest blocked hash within MATCH_BITS of `h`. */
  async function closest(h: bigint): Promise<BlockMatch | null> {
    const bands = bandsOf(h).map((v, i) => bandNeighbours(v, BAND_BITS[i], BAND_RADIUS));
    const r = await closestBlockedHash.first(db, { bands, hash: toSigned(h), maxBits: MATCH_BITS });
    return r ? { blockedHashId: r.id, distance: r.distance, targetType: r.target_type, targetId: r.target_id } : null;
  }

  /** The best match of any of the hashes (a photo has one, a video one per sampled frame). */
  async function match(hashes: bigint[]): Promise<BlockMatch | null> {
    let best: BlockMatch | null = null;
    for (const h of hashes) {
      const m = await closest(h);
      if (m && (!best || m.distance < best.distance)) best = m;
      if (best?.distance === 0) break;
    }
    return best;
  }

  async function recordHit(userId: number, kind: BlockHitKind, m: BlockMatch, taskId?: number) {
    await db.blockedHashHit.create({ data: { blockedHashId: m.blockedHashId, userId, kind, taskId: taskId ?? null, distance: m.distance } });
    log.warn({ userId, kind, taskId, blockedHashId: m.blockedHashId, distance: m.distance, case: `${m.targetType}:${m.targetId}` }, "blocked media matched");
  }

  const refusal = () => {
    const reason: ScreeningRefusal = "blocked_media";
    return new HttpError(403, SCREENING_MESSAGES.blocked, { reason });
  };

  return {
    match,

    /** An upload's hashes: refused (403, hit recorded) when one matches the blocklist. */
    async refuseBlockedUpload(userId: number, hashes: bigint[]): Promise<void> {
      const m = await match(hashes);
      if (!m) return;
      await recordHit(userId, "upload", m);
      throw refusal();
    },

    /** A finished task's output files: the match (hit recorded), or null. Nothing is hashed while the list is empty. */
    async blockedOutput(userId: number, taskId: number, keys: string[]): Promise<BlockMatch | null> {
      if (!(await db.blockedHash.findFirst({ select: { id: true } }))) return null;
      const hashes = (await Promise.all(keys.map((k) => hashesOfStored(storage, k, { enrol: false })))).flat();
      const m = await match(hashes);
      if (m) await recordHit(userId, "output", m, taskId);
      return m;
    },
  };
}
