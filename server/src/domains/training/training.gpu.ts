import crypto from "node:crypto";
import type { Db, Tx } from "../../db/client.ts";
import { evictEverywhere, loraLinksFor } from "../generation/engines/lora-links.ts";
import type { TrainingDeps } from "./training.deps.ts";

/** What a GPU server's fetch of a character model names: the file, the server the link was signed for, and the signature. */
export interface GpuWeightsQuery {
  sha256: string;
  server: string;
  expires: number;
  sig: string;
}

/**
 * A character model on the GPU servers (decision 330): the weights served to a server holding a valid link, each
 * server that fetched them recorded (the data export lists them), and evicted from every server when the model goes.
 */
export function createTrainingGpu(d: Pick<TrainingDeps, "db" | "config" | "storage" | "log">) {
  const { db, config, storage, log } = d;
  const links = loraLinksFor(config);
  /** The ComfyUI servers to ask: every configured one, and any other that fetched a copy (a server since removed from the list). */
  const comfyServers = (recorded: string[]) => [...config.COMFYUI_URLS, ...recorded.filter((s) => s !== config.SERVERLESS_URL)];

  return {
    /**
     * The storage key of the weights a valid link names, the server's copy recorded; null when the signature is wrong,
     * expired or for another server, or the model is no longer usable (removed, revoked, erased): its links die with it.
     */
    async gpuWeights(q: GpuWeightsQuery): Promise<string | null> {
      if (!links.verify(q.sha256, q.server, q.expires, q.sig)) return null;
      const m = await db.characterModel.findFirst({
        where: { weightsSha256: q.sha256, state: "active", status: "success", artifactKey: { not: null } },
        select: { id: true, userId: true, artifactKey: true },
      });
      if (!m?.artifactKey) return null;
      await db.gpuLoraCopy.upsert({
        where: { sha256_server: { sha256: q.sha256, server: q.server } },
        create: { userId: m.userId, modelId: m.id, sha256: q.sha256, server: q.server },
        update: { lastAt: new Date(), evictedAt: null, modelId: m.id },
      });
      return m.artifactKey;
    },

    /** The SHA-256 of a model's weights; a model trained before decision 330 has it computed and kept on first use. */
    async weightsSha256(m: { id: number; artifactKey: string; weightsSha256: string | null }): Promise<string> {
      if (m.weightsSha256) return m.weightsSha256;
      const hash = crypto.createHash("sha256");
      for await (const chunk of await storage.stream(m.artifactKey)) hash.update(chunk as Buffer);
      const sha256 = hash.digest("hex");
      await db.characterModel.update({ where: { id: m.id }, data: { weightsSha256: sha256 } });
      return sha256;
    },

    /**
     * Deletes these weights from every GPU server's cache now (removal, consent withdrawn, erasure) and marks the copies
     * the servers confirmed; `tx` when the rows go in the same transaction. A server that does not answer deletes its
     * copy by its own age limit (REVERIE_LORA_MAX_AGE_HOURS); it could not fetch the file again meanwhile.
     */
    async evictFromGpus(sha256s: (string | null)[], tx: Db | Tx = db): Promise<void> {
      const shas = [...new Set(sha256s.filter((s): s is string => !!s))];
      if (!shas.length) return;
      const copies = await tx.gpuLoraCopy.findMany({ where: { sha256: { in: shas } }, select: { server: true } });
      const confirmed = await evictEverywhere(comfyServers(copies.map((c) => c.server)), shas);
      await tx.gpuLoraCopy.updateMany({ where: { sha256: { in: shas }, server: { in: confirmed }, evictedAt: null }, data: { evictedAt: new Date() } });
      const unconfirmed = [...new Set(copies.map((c) => c.server))].filter((s) => !confirmed.includes(s));
      if (unconfirmed.length) log.warn({ sha256s: shas, unconfirmed }, "character model: GPU servers did not confirm the eviction; their age limit deletes it");
    },
  };
}

export type TrainingGpu = ReturnType<typeof createTrainingGpu>;
