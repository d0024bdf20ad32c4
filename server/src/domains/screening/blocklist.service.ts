import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Logger } from "pino";
import type { Db, Tx } from "../../db/client.ts";
import { matching, pageOf, type ListParams } from "../../db/paging.ts";
import { HttpError } from "../../http/errors.ts";
import { measuredDurationSec } from "../../storage/media-tools.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import { SCREENING_MESSAGES, type BlockHitKind, type BlockSource, type ScreeningRefusal } from "../../contract/screening.ts";
import type { ReportTarget } from "../../contract/moderation.ts";
import type { AuditService } from "../audit/audit.service.ts";
import { sampleFrames } from "./frames.ts";
import { BAND_BITS, bandNeighbours, bandsOf, enrolmentHashes, fromSigned, hashHex, perceptualHash, toSigned } from "./phash.ts";
import { IMPORT_MAX_LINES, type BlockedHashFilter } from "./screening.schema.ts";

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

/**
 * The blocklist of taken-down media (issue 19, docs/decisions/142): pHash of every taken-down image and of sampled
 * frames of every taken-down video, plus lists moderators import. Uploads and generated outputs that match are
 * refused and the hit is linked to the blocked hash, so to the original case. Owns `blocked_hashes` and
 * `blocked_hash_hits`.
 */
export function createBlocklistService(deps: { db: Db; storage: MediaStorage; audit: AuditService; log: Logger }) {
  const { db, storage, audit, log } = deps;

  /**
   * The closest blocked hash within MATCH_BITS of `h`: multi-index lookup on the five `(band, hash)` indexes (each
   * candidate verified from the index alone), then the one best row read for its case.
   */
  async function closest(h: bigint): Promise<BlockMatch | null> {
    const [b0, b1, b2, b3, b4] = bandsOf(h).map((v, i) => bandNeighbours(v, BAND_BITS[i], BAND_RADIUS));
    const signed = toSigned(h);
    const rows = await db.$queryRaw<{ id: number; target_type: string | null; target_id: number | null; distance: number }[]>`
      WITH candidates AS (
        SELECT hash FROM blocked_hashes WHERE band_0 = ANY(${b0}::int[])
        UNION ALL SELECT hash FROM blocked_hashes WHERE band_1 = ANY(${b1}::int[])
        UNION ALL SELECT hash FROM blocked_hashes WHERE band_2 = ANY(${b2}::int[])
        UNION ALL SELECT hash FROM blocked_hashes WHERE band_3 = ANY(${b3}::int[])
        UNION ALL SELECT hash FROM blocked_hashes WHERE band_4 = ANY(${b4}::int[])
      ), best AS (
        SELECT hash, bit_count((hash # ${signed}::bigint)::bit(64))::int AS distance FROM candidates
        WHERE bit_count((hash # ${signed}::bigint)::bit(64)) <= ${MATCH_BITS}
        ORDER BY distance, hash LIMIT 1
      )
      SELECT b.id, b.target_type, b.target_id, best.distance FROM best JOIN blocked_hashes b ON b.hash = best.hash`;
    const r = rows[0];
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

  /** Hashes of a stored file: the image itself (with its crop variants when it is enrolled), or sampled frames of a video. */
  async function hashesOfStored(key: string, o: { enrol: boolean }): Promise<bigint[]> {
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

  async function insert(c: Tx | Db, hashes: bigint[], row: { source: BlockSource; targetType?: string; targetId?: number; note?: string | null; addedBy?: number | null }) {
    const data = [...new Set(hashes)].map((h) => {
      const [band0, band1, band2, band3, band4] = bandsOf(h);
      return { hash: toSigned(h), band0, band1, band2, band3, band4, source: row.source, targetType: row.targetType ?? null, targetId: row.targetId ?? null, note: row.note ?? null, addedBy: row.addedBy ?? null };
    });
    let added = 0;
    for (let i = 0; i < data.length; i += 5000) added += (await c.blockedHash.createMany({ data: data.slice(i, i + 5000), skipDuplicates: true })).count;
    return added;
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
      const hashes = (await Promise.all(keys.map((k) => hashesOfStored(k, { enrol: false })))).flat();
      const m = await match(hashes);
      if (m) await recordHit(userId, "output", m, taskId);
      return m;
    },

    /**
     * The takedown hook (moderation calls it in the takedown's transaction): the taken-down upload's or creation's
     * media are hashed onto the blocklist, linked to that content. Other kinds of content carry no media of ours.
     */
    async blockTakenDown(tx: Tx, targetType: ReportTarget, targetId: number): Promise<void> {
      let keys: string[] = [];
      if (targetType === "upload") {
        const u = await tx.upload.findUnique({ where: { id: targetId }, select: { kind: true, storageKey: true } });
        if (u && u.kind !== "audio") keys = [u.storageKey];
      } else if (targetType === "task") {
        const t = await tx.generationTask.findUnique({ where: { id: targetId }, select: { outputKey: true, outputs: true } });
        keys = outputKeys(t?.outputKey ?? null, t?.outputs);
      }
      if (!keys.length) return;
      // a file already gone (an expired creation) cannot be hashed; the takedown itself still goes through
      const hashed = await Promise.all(keys.map((k) => hashesOfStored(k, { enrol: true }).catch((err: Error) => (log.warn({ key: k, targetType, targetId, err: err.message }, "taken-down media could not be hashed"), []))));
      const hashes = hashed.flat();
      if (!hashes.length) return;
      await insert(tx, hashes, { source: "takedown", targetType, targetId });
    },

    /** A moderator's list of hashes (16 hex digits a line; blank lines and `#` comments ignored), audited. */
    async importHashes(staffId: number, text: string, note: string | null) {
      const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
      if (!lines.length) throw HttpError.badRequest("Paste at least one hash");
      if (lines.length > IMPORT_MAX_LINES) throw HttpError.badRequest(`At most ${IMPORT_MAX_LINES} hashes per import`);
      const bad = lines.flatMap((l, i) => (/^(0x)?[0-9a-f]{16}$/i.test(l) ? [] : [i + 1]));
      if (bad.length) throw HttpError.badRequest(`Each line must be a 64-bit hash as 16 hexadecimal digits (lines ${bad.slice(0, 10).join(", ")}${bad.length > 10 ? ", ..." : ""})`);
      const hashes = lines.map((l) => BigInt(`0x${l.replace(/^0x/i, "")}`));
      return db.$transaction(async (tx) => {
        const added = await insert(tx, hashes, { source: "import", note, addedBy: staffId });
        const result = { added, duplicates: new Set(hashes).size - added, lines: lines.length };
        await audit.record(tx, { staffId, action: "blocklist_import", resource: "BlockedHash", resourceId: null, after: result, reason: note });
        return result;
      }, { timeout: 120_000 });
    },

    async list(params: ListParams<BlockedHashFilter>) {
      const page = await pageOf(db.blockedHash, params, matching(params.filter, ["source", "targetType", "targetId"]), { include: { _count: { select: { hits: true } } } });
      return { ...page, rows: page.rows.map((r) => view(r as typeof r & { _count: { hits: number } })) };
    },

    async get(id: number) {
      const h = await db.blockedHash.findUnique({ where: { id }, include: { _count: { select: { hits: true } } } });
      return h && view(h);
    },
  };
}

/** The files of a creation: the main output and the extra ones (the other images of a batch). */
function outputKeys(mainKey: string | null, outputs: unknown): string[] {
  const extra = (outputs as { extraKeys?: unknown[] } | null)?.extraKeys ?? [];
  return [...new Set([mainKey, ...extra].filter((k): k is string => typeof k === "string" && k.length > 0))];
}

function view({ hash, band0: _0, band1: _1, band2: _2, band3: _3, band4: _4, _count, ...h }: { hash: bigint; band0: number; band1: number; band2: number; band3: number; band4: number; _count: { hits: number }; [k: string]: unknown }) {
  return { ...h, hash: hashHex(fromSigned(hash)), hits: _count.hits };
}

export type BlocklistService = ReturnType<typeof createBlocklistService>;
