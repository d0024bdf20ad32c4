import type { Logger } from "pino";
import type { Db } from "../../db/client.ts";
import { matching, pageOf, type ListParams } from "../../db/paging.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import type { AuditService } from "../audit/audit.service.ts";
import { createBlocklistEnrolment } from "./blocklist.enrol.ts";
import { createBlocklistMatching } from "./blocklist.match.ts";
import { fromSigned, hashHex } from "./phash.ts";
import type { BlockedHashFilter } from "./screening.schema.ts";

/**
 * The blocklist of taken-down media (issue 19, docs/decisions/142): pHash of every taken-down image and of sampled
 * frames of every taken-down video, plus lists moderators import. Uploads and generated outputs that match are
 * refused and the hit is linked to the blocked hash, so to the original case. Owns `blocked_hashes` and
 * `blocked_hash_hits`.
 */
export function createBlocklistService(deps: { db: Db; storage: MediaStorage; audit: AuditService; log: Logger }) {
  const { db } = deps;
  return {
    ...createBlocklistMatching(deps),
    ...createBlocklistEnrolment(deps),

    async list(params: ListParams<BlockedHashFilter>) {
      const page = await pageOf(db.blockedHash, params, matching(params.filter, ["source", "targetType", "targetId"]), {
        include: { _count: { select: { hits: true } } },
      });
      return { ...page, rows: page.rows.map((r) => view(r as typeof r & { _count: { hits: number } })) };
    },

    async get(id: number) {
      const h = await db.blockedHash.findUnique({ where: { id }, include: { _count: { select: { hits: true } } } });
      return h && view(h);
    },
  };
}

function view({
  hash,
  band0: _0,
  band1: _1,
  band2: _2,
  band3: _3,
  band4: _4,
  _count,
  ...h
}: {
  hash: bigint;
  band0: number;
  band1: number;
  band2: number;
  band3: number;
  band4: number;
  _count: { hits: number };
  [k: string]: unknown;
}) {
  return { ...h, hash: hashHex(fromSigned(hash)), hits: _count.hits };
}

export type BlocklistService = ReturnType<typeof createBlocklistService>;
