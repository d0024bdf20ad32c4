import type { Logger } from "pino";
import type { Db, Tx } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import type { BlockSource } from "../../contract/screening.ts";
import type { ReportTarget } from "../../contract/moderation.ts";
import type { AuditService } from "../audit/audit.service.ts";
import { hashesOfStored } from "./blocklist.match.ts";
import { bandsOf, toSigned } from "./phash.ts";
import { IMPORT_MAX_LINES } from "./screening.schema.ts";

/** The files of a creation: the main output and the extra ones (the other images of a batch). */
function outputKeys(mainKey: string | null, outputs: unknown): string[] {
  const extra = (outputs as { extraKeys?: unknown[] } | null)?.extraKeys ?? [];
  return [...new Set([mainKey, ...extra].filter((k): k is string => typeof k === "string" && k.length > 0))];
}

/** A moderator's list as hashes: 16 hex digits a line, blank lines and `#` comments ignored; 400 naming bad lines. */
function parseHashList(text: string): { hashes: bigint[]; lines: number } {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
  if (!lines.length) throw HttpError.badRequest("Paste at least one hash");
  if (lines.length > IMPORT_MAX_LINES) throw HttpError.badRequest(`At most ${IMPORT_MAX_LINES} hashes per import`);
  const bad = lines.flatMap((l, i) => (/^(0x)?[0-9a-f]{16}$/i.test(l) ? [] : [i + 1]));
  if (bad.length)
    throw HttpError.badRequest(
      `Each line must be a 64-bit hash as 16 hexadecimal digits (lines ${bad.slice(0, 10).join(", ")}${bad.length > 10 ? ", ..." : ""})`,
    );
  return { hashes: lines.map((l) => BigInt(`0x${l.replace(/^0x/i, "")}`)), lines: lines.length };
}

/** What goes onto the blocklist: the media of every takedown, and the lists moderators import. */
export function createBlocklistEnrolment(deps: { db: Db; storage: MediaStorage; audit: AuditService; log: Logger }) {
  const { db, storage, audit, log } = deps;

  async function insert(
    c: Tx | Db,
    hashes: bigint[],
    row: { source: BlockSource; targetType?: string; targetId?: number; note?: string | null; addedBy?: number | null },
  ) {
    const data = [...new Set(hashes)].map((h) => {
      const [band0, band1, band2, band3, band4] = bandsOf(h);
      return {
        hash: toSigned(h),
        band0,
        band1,
        band2,
        band3,
        band4,
        source: row.source,
        targetType: row.targetType ?? null,
        targetId: row.targetId ?? null,
        note: row.note ?? null,
        addedBy: row.addedBy ?? null,
      };
    });
    let added = 0;
    for (let i = 0; i < data.length; i += 5000) added += (await c.blockedHash.createMany({ data: data.slice(i, i + 5000), skipDuplicates: true })).count;
    return added;
  }

  /** The stored files of taken-down content: an upload's (not audio), or a creation's outputs. */
  async function takenDownKeys(tx: Tx, targetType: ReportTarget, targetId: number): Promise<string[]> {
    if (targetType === "upload") {
      const u = await tx.upload.findUnique({ where: { id: targetId }, select: { kind: true, storageKey: true } });
      return u && u.kind !== "audio" ? [u.storageKey] : [];
    }
    if (targetType === "task") {
      const t = await tx.generationTask.findUnique({ where: { id: targetId }, select: { outputKey: true, outputs: true } });
      return outputKeys(t?.outputKey ?? null, t?.outputs);
    }
    return [];
  }

  return {
    /**
     * The takedown hook (moderation calls it in the takedown's transaction): the taken-down upload's or creation's
     * media are hashed onto the blocklist, linked to that content. Other kinds of content carry no media of ours.
     */
    async blockTakenDown(tx: Tx, targetType: ReportTarget, targetId: number): Promise<void> {
      const keys = await takenDownKeys(tx, targetType, targetId);
      if (!keys.length) return;
      // a file already gone (an expired creation) cannot be hashed; the takedown itself still goes through
      const hashed = await Promise.all(
        keys.map((k) =>
          hashesOfStored(storage, k, { enrol: true }).catch(
            (err: Error) => (log.warn({ key: k, targetType, targetId, err: err.message }, "taken-down media could not be hashed"), []),
          ),
        ),
      );
      const hashes = hashed.flat();
      if (!hashes.length) return;
      await insert(tx, hashes, { source: "takedown", targetType, targetId });
    },

    /** A moderator's list of hashes (16 hex digits a line; blank lines and `#` comments ignored), audited. */
    async importHashes(staffId: number, text: string, note: string | null) {
      const { hashes, lines } = parseHashList(text);
      return db.$transaction(
        async (tx) => {
          const added = await insert(tx, hashes, { source: "import", note, addedBy: staffId });
          const result = { added, duplicates: new Set(hashes).size - added, lines };
          await audit.record(tx, { staffId, action: "blocklist_import", resource: "BlockedHash", resourceId: null, after: result, reason: note });
          return result;
        },
        { timeout: 120_000 },
      );
    },
  };
}
