import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { createDb } from "../server/src/db/client.ts";
import { startEmbeddedPostgres } from "../server/src/db/embedded.ts";
import { runMigrations } from "../server/src/db/migrate.ts";
import { createAuditService } from "../server/src/domains/audit/audit.service.ts";
import { createDataExports } from "../server/src/domains/privacy/privacy.exports.ts";
import type { PrivacyJobs } from "../server/src/domains/privacy/privacy.jobs.ts";
import { createLocalStorage } from "../server/src/storage/local.storage.ts";
import { freePort } from "../tests/net-utils.ts";
import type { BenchResult } from "./run.ts";

const CREATIONS = 500;
const MESSAGES = 2_000;
const CONVERSATIONS = 20;
/** Each creation's file: 400 KB, so the archive (200 MB) dwarfs any memory a streamed export should use. */
const FILE_BYTES = 400 * 1024;
const TARGET_SECONDS = 30;

/**
 * Issue 30's Measure: the export of an account with 500 creations (each with its file) and 2,000 chat messages, end to
 * end through the export job (pages of rows, files streamed from storage into the zip, the zip stored). Reports the
 * time and the peak growth of the process's resident memory over the start, sampled every 20 ms (decision 261).
 */
export default async function dataExportBench(): Promise<BenchResult[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-bench-export-"));
  const pg = await startEmbeddedPostgres(path.join(dir, "pg"), await freePort());
  const db = createDb(pg.url, 6);
  try {
    await runMigrations(pg.url);
    const storage = createLocalStorage({ root: path.join(dir, "media"), secret: "bench", defaultTtl: 600, publicUrl: "http://localhost" });
    const user = await db.user.create({ data: { email: "bench@example.com", nickname: "Bench" } });
    for (let i = 0; i < CREATIONS; i++) {
      const key = `u/${user.id}/outputs/${crypto.randomUUID()}.mp4`;
      await storage.put(key, crypto.randomBytes(FILE_BYTES), "video/mp4");
      await db.generationTask.create({
        data: { userId: user.id, mode: "image_to_video", engine: "local", status: "succeeded", cost: 1, input: { prompt: `take ${i}` }, outputKey: key },
      });
    }
    const character = await db.character.create({ data: { userId: user.id, name: "Mira" } });
    for (let c = 0; c < CONVERSATIONS; c++) {
      const conv = await db.conversation.create({ data: { userId: user.id, characterId: character.id } });
      const per = MESSAGES / CONVERSATIONS;
      await db.chatMessage.createMany({
        data: Array.from({ length: per }, (_, i) => ({ conversationId: conv.id, role: i % 2 ? "assistant" : "user", content: `message ${i} `.repeat(20) })),
      });
    }
    const noJobs = { sendExpiry: async () => undefined } as unknown as PrivacyJobs;
    const exports = createDataExports({
      db,
      log: pino({ level: "silent" }),
      storage,
      audit: createAuditService(db),
      jobs: noJobs,
      sendMail: async () => undefined,
      contactOf: async () => null,
      keepHours: 1,
      linkTtlSeconds: 60,
      productName: async () => "Reverie",
    });
    const row = await db.dataExport.create({ data: { userId: user.id } });
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const started = performance.now();
    await exports.run(row.id);
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const done = await db.dataExport.findUniqueOrThrow({ where: { id: row.id } });
    const archiveMb = Number(done.sizeBytes ?? 0) / 2 ** 20;
    const growthMb = (peak - baseline) / 2 ** 20;
    return [
      {
        name: "export of 500 creations + 2,000 chat messages",
        value: seconds,
        unit: "s",
        target: `<= ${TARGET_SECONDS} s`,
        pass: done.status === "ready" && seconds <= TARGET_SECONDS,
        detail: { status: done.status, archiveMb: Math.round(archiveMb), error: done.error },
      },
      {
        name: "peak RSS growth during the export",
        value: growthMb,
        unit: "MiB",
        target: "flat: well under the archive's size",
        pass: growthMb < archiveMb / 4,
        detail: { archiveMb: Math.round(archiveMb), baselineMb: Math.round(baseline / 2 ** 20) },
      },
    ];
  } finally {
    await db.$disconnect();
    await pg.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}
