import type PgBoss from "pg-boss";
import type { Logger } from "pino";
import type { Language } from "../../contract/locales.ts";
import type { Db, Tx } from "../../db/client.ts";
import type { MediaStorage } from "../../storage/media-storage.ts";
import type { AuditService } from "../audit/audit.service.ts";
import type { Mail } from "../auth/mailer.ts";
import { createDeletions, type DeletionDeps, deletionView } from "./privacy.deletions.ts";
import { createErasure, type EraseUserRows } from "./privacy.erase.ts";
import { createDataExports, exportView } from "./privacy.exports.ts";
import { createPrivacyJobs } from "./privacy.jobs.ts";

export interface PrivacyDeps {
  db: Db;
  log: Logger;
  storage: MediaStorage;
  audit: AuditService;
  /** the pg-boss instance generation's queue runs (render.queue.ready) */
  boss: () => Promise<PgBoss>;
  sendMail(mail: Mail): Promise<void>;
  /** users: where and in which language to write to the person (null without an email) */
  contactOf(userId: number): Promise<{ email: string; language: Language } | null>;
  sendDeletionCode: DeletionDeps["sendDeletionCode"];
  confirmDeletionCode: DeletionDeps["confirmDeletionCode"];
  cancelPlan(userId: number): Promise<unknown>;
  evictModels(userId: number): Promise<void>;
  cancelTasks(tx: Tx, userId: number): Promise<void>;
  /** every other domain's part of an erasure, in order; privacy adds its own exports before them */
  owners: EraseUserRows[];
  graceDays: number;
  exportKeepHours: number;
  linkTtlSeconds: number;
  /** the brand's name, which an archive's file is named after */
  productName(): Promise<string>;
}

/** GDPR rights of a person over their account (issue 30 item 6): my data out (decision 261), my account gone (decision 262). */
export function createPrivacyService(d: PrivacyDeps) {
  const jobs = createPrivacyJobs(d.boss);
  const exports = createDataExports({ ...d, jobs, keepHours: d.exportKeepHours });
  const deletions = createDeletions({ ...d, jobs });
  const eraseDue = createErasure({ ...d, owners: [exports.eraseUser, ...d.owners] });

  return {
    /** What the My data section shows: the latest export and when the next may be asked for, the latest deletion, and how a deletion is confirmed. */
    async status(userId: number) {
      const [e, next, del, contact] = await Promise.all([exports.latest(userId), exports.nextExportAt(userId), deletions.latest(userId), d.contactOf(userId)]);
      return {
        export: exportView(e),
        next_export_at: next,
        deletion: deletionView(del),
        confirm_by: contact ? ("email" as const) : ("app" as const),
      };
    },
    requestExport: exports.request,
    exportLink: exports.download,
    runExport: exports.run,
    expireExport: exports.expire,
    sendDeletionCode: deletions.sendCode,
    requestDeletion: deletions.request,
    undoDeletion: deletions.undo,
    eraseDue,

    /** The sweep behind the erase jobs: any pending deletion past its time whose job was lost is erased now. */
    async eraseOverdue(now = new Date()): Promise<number> {
      let erased = 0;
      for (const { id } of await deletions.overdue(now)) if (await eraseDue(id, now)) erased++;
      return erased;
    },

    /** Works the export, expiry and erase queues (the API process that runs the worker calls this once). */
    startJobs: () => jobs.work({ export: exports.run, expire: exports.expire, erase: (id) => eraseDue(id) }, d.log),
  };
}

export type PrivacyService = ReturnType<typeof createPrivacyService>;
