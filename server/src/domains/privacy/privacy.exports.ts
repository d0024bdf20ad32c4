import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Logger } from "pino";
import type { Language } from "../../contract/locales.ts";
import { DATA_EXPORT_EVERY_HOURS, DATA_EXPORT_IN_PROGRESS, PRIVACY_MESSAGES as M } from "../../contract/privacy.ts";
import { isUniqueViolation, type Db, type Tx } from "../../db/client.ts";
import type { DataExport } from "../../db/generated/client.ts";
import { HttpError } from "../../http/errors.ts";
import { mediaKey, type MediaStorage } from "../../storage/storage.ts";
import type { AuditService } from "../audit/audit.service.ts";
import type { Mail } from "../auth/mailer.ts";
import { ArchiveFile } from "./privacy.archive.ts";
import { createExportWriter } from "./privacy.export.ts";
import type { PrivacyJobs } from "./privacy.jobs.ts";
import { privacyMail } from "./privacy.mail.ts";
import { lockExportRequests } from "./privacy.queries.ts";

const EVERY_MS = DATA_EXPORT_EVERY_HOURS * 3600_000;

export interface ExportDeps {
  db: Db;
  log: Logger;
  storage: MediaStorage;
  audit: AuditService;
  jobs: PrivacyJobs;
  sendMail(mail: Mail): Promise<void>;
  /** users: where and in which language to write to the person (null without an email) */
  contactOf(userId: number): Promise<{ email: string; language: Language } | null>;
  keepHours: number;
  linkTtlSeconds: number;
  /** the operator's product name (the brand), which the archive's file is named after */
  productName(): Promise<string>;
}

/**
 * The archive's file name: the product and the day it was made ("Reverie-data-2026-12-07.zip", issue 46 item 21), in
 * the characters a download name may have (storage.routes.ts DOWNLOAD_NAME); a name with none of them is "data".
 */
export function archiveName(product: string, madeAt: Date): string {
  const slug = product
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return `${slug ? `${slug}-` : ""}data-${madeAt.toISOString().slice(0, 10)}.zip`;
}

/** An export as its person sees it; the download link is asked for separately, when they tap it. */
export function exportView(e: DataExport | null) {
  if (!e) return null;
  return {
    id: e.id,
    status: e.status,
    created_at: e.createdAt,
    ready_at: e.readyAt,
    expires_at: e.expiresAt,
    size_bytes: e.sizeBytes === null ? null : Number(e.sizeBytes),
  };
}

/** "My data out" (GDPR Art. 15, 20; decision 261): asked for, built in the background, downloaded, expired. */
export function createDataExports(d: ExportDeps) {
  const { db, storage } = d;
  const writeExport = createExportWriter(db, storage);

  /**
   * When the person may ask for their next export: a day after the last one they asked for (not staff's, not a failed
   * one), or null when they may now.
   */
  async function nextExportAt(tx: Db | Tx, userId: number, now = new Date()): Promise<Date | null> {
    const last = await tx.dataExport.findFirst({
      where: { userId, staffId: null, status: { not: "failed" }, createdAt: { gt: new Date(now.getTime() - EVERY_MS) } },
      orderBy: { createdAt: "desc" },
      select: { createdAt: true },
    });
    return last && new Date(last.createdAt.getTime() + EVERY_MS);
  }

  /**
   * Asks for an export: one queued or running at a time per account (a unique index decides a race), 409 otherwise;
   * a person's own once a day, 429 with when they may ask again (decision 372). Staff may start more, audited.
   */
  async function request(userId: number, staffId: number | null = null, reason?: string) {
    const created = await db
      .$transaction(async (tx) => {
        if (staffId === null) {
          await lockExportRequests.rows(tx, { userId });
          const next = await nextExportAt(tx, userId);
          if (next) {
            // one still being prepared says so: the person waits for it, not for tomorrow
            const open = await tx.dataExport.count({ where: { userId, status: { in: [...DATA_EXPORT_IN_PROGRESS] } } });
            throw open ? HttpError.conflict(M.exportRunning) : new HttpError(429, M.exportDaily, { next_export_at: next });
          }
          return tx.dataExport.create({ data: { userId, staffId } });
        }
        // staff name the account by an id they typed: an unknown one is 404, not a failed insert
        if (!(await tx.user.findUnique({ where: { id: userId }, select: { id: true } }))) throw HttpError.notFound();
        const row = await tx.dataExport.create({ data: { userId, staffId } });
        await d.audit.record(tx, { staffId, action: "data_export", resource: "User", resourceId: userId, reason });
        return row;
      })
      .catch((err: unknown) => {
        throw isUniqueViolation(err) ? HttpError.conflict(M.exportRunning) : err;
      });
    try {
      await d.jobs.sendExport(created.id);
    } catch (err) {
      // without its job the row would block every later request: it goes, and the person may ask again
      await db.dataExport.delete({ where: { id: created.id } });
      throw err;
    }
    return exportView(created)!;
  }

  /** A short-lived signed link to the person's own ready archive; anyone else's export is 404. */
  async function download(userId: number, id: number) {
    const e = await db.dataExport.findFirst({ where: { id, userId } });
    if (!e) throw HttpError.notFound();
    if (e.status !== "ready" || !e.storageKey) throw HttpError.conflict(M.exportNotReady);
    const name = archiveName(await d.productName(), e.readyAt ?? e.createdAt);
    return { url: await storage.signedUrl(e.storageKey, d.linkTtlSeconds, name), expires_in: d.linkTtlSeconds };
  }

  /**
   * The job: builds the archive in a temp file, stores it, marks it ready and tells the person (by email when on
   * file; the app shows it in My data). Idempotent: a queued or interrupted (running) export is built again; anything
   * else is left alone. A failure marks it failed, so the person may ask again.
   */
  async function run(id: number): Promise<void> {
    const started = await db.dataExport.updateMany({ where: { id, status: { in: [...DATA_EXPORT_IN_PROGRESS] } }, data: { status: "running" } });
    if (started.count === 0) return;
    const e = await db.dataExport.findUniqueOrThrow({ where: { id } });
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-export-"));
    const zip = new ArchiveFile(path.join(dir, "export.zip"));
    try {
      await writeExport(zip, e.userId);
      await zip.close();
      const key = mediaKey(e.userId, "exports", "zip");
      await storage.putFile(key, zip.path, "application/zip");
      const size = (await fs.stat(zip.path)).size;
      const expiresAt = new Date(Date.now() + d.keepHours * 3600_000);
      await db.dataExport.update({ where: { id }, data: { status: "ready", storageKey: key, sizeBytes: size, readyAt: new Date(), expiresAt } });
      await d.jobs.sendExpiry(id, expiresAt);
      const to = await d.contactOf(e.userId);
      if (to) await d.sendMail({ to: to.email, ...privacyMail("exportReady", to.language, expiresAt) });
    } catch (err) {
      zip.abort();
      d.log.error({ err, exportId: id }, "data export failed");
      await db.dataExport.update({ where: { id }, data: { status: "failed", error: String((err as Error).message).slice(0, 500) } });
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }

  /** The job at the end of the keeping time: the archive is deleted and the export shows expired. */
  async function expire(id: number): Promise<void> {
    const e = await db.dataExport.findFirst({ where: { id, status: "ready" } });
    if (!e?.storageKey) return;
    await storage.delete(e.storageKey);
    await db.dataExport.update({ where: { id }, data: { status: "expired", storageKey: null } });
  }

  /** Account erasure (decision 262): the account's exports go, and their archives once the erasure commits. */
  async function eraseUser(tx: Tx, userId: number): Promise<string[]> {
    const rows = await tx.dataExport.findMany({ where: { userId, storageKey: { not: null } }, select: { storageKey: true } });
    await tx.dataExport.deleteMany({ where: { userId } });
    return rows.map((r) => r.storageKey!);
  }

  const latest = (userId: number) => db.dataExport.findFirst({ where: { userId }, orderBy: { id: "desc" } });
  return { request, download, run, expire, eraseUser, latest, nextExportAt: (userId: number) => nextExportAt(db, userId) };
}

export type DataExports = ReturnType<typeof createDataExports>;
