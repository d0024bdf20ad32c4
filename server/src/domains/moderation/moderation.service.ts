import type { Db, Tx } from "../../db/client.ts";
import type { ReportTarget } from "../../db/generated/enums.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import type { AuditService } from "../audit/audit.service.ts";
import { RESOURCE, type ContentOwners } from "./moderated-content.ts";
import { bannedOwner, createBans, type BanDeps } from "./moderation.bans.ts";
import { createContentModeration } from "./moderation.content.ts";
import type { Decided } from "./moderation.decisions.ts";
import { notifierOf, type SendMail } from "./moderation.notifier.ts";
import { createModerationQueue } from "./moderation.queue.ts";
import { createReports, preserverOf, type PreserveEvidence } from "./moderation.reports.ts";
import { createTakedowns } from "./moderation.takedowns.ts";

/** Other domains declare what they let moderation see with this (chat's characters and conversations, creator pages). */
export type { ModeratedContent } from "./moderated-content.ts";

interface Deps extends BanDeps {
  db: Db;
  audit: AuditService;
  /** Tasks, uploads, characters, conversations and creator pages as their owning domains let moderation see and change them. */
  owned: ContentOwners;
  /** Puts taken-down media on the perceptual-hash blocklist (screening's blocklist.blockTakenDown, issue 19). */
  blockTakenDown: (tx: Tx, targetType: ReportTarget, targetId: number) => Promise<void>;
  /** Copies reported content into the restricted evidence store, once per content (evidence.preserve). */
  preserveEvidence: PreserveEvidence;
  /** Signed, short-lived browser URLs of stored files, for the console's preview. */
  storage: Pick<MediaStorage, "signedUrl">;
  /** Sends an email (the mailer: outbox first, then SMTP when configured); notifiers of the public form are told receipt and outcome. */
  sendMail: SendMail;
}

/**
 * Reports, takedowns and bans (ARCHITECTURE.md §8). An underage report suspends public content (or the reporter's own)
 * in the same transaction that files it; a ban revokes every token of the account, and fails its renders, before it
 * commits. Composed of its use cases: reports (moderation.reports.ts), the console's queue (moderation.queue.ts),
 * takedowns from a report (moderation.takedowns.ts) or from the content (moderation.content.ts), and bans
 * (moderation.bans.ts).
 */
export function createModerationService({ db, audit, owned: content, blockTakenDown, preserveEvidence, storage, sendMail, ...banDeps }: Deps) {
  const tellNotifier = notifierOf(sendMail);
  const preserve = preserverOf(content, preserveEvidence);
  const bans = createBans({ audit, ...banDeps });
  const takedowns = createTakedowns({ db, audit, content, bans, blockTakenDown, preserve, tellNotifier });
  const { fileReport, fileNotice } = createReports({ db, audit, content, preserve, tellNotifier });
  const queue = createModerationQueue({ db, content, storage });
  const onContent = createContentModeration({ db, audit, content, takedowns });
  return {
    fileReport,
    fileNotice,
    listReports: queue.listReports,
    getReport: queue.getReport,
    preview: queue.preview,
    dismiss: takedowns.dismiss,
    takeDown: takedowns.takeDown,
    banUploader: takedowns.banUploader,

    /** A ban from the account itself; `reason` may be a plain string (ground "other"). */
    ban: (staffId: number, userId: number, d: Decided | string) =>
      db.$transaction((tx) => bans.ban(tx, staffId, userId, typeof d === "string" ? { reason: d } : d)),
    /** Lifts every ban in force on the account; the account may log in again. */
    unban: (staffId: number, userId: number, reason: string) => db.$transaction((tx) => bans.liftBans(tx, staffId, userId, reason)),
    listBans: queue.listBans,
    getBan: queue.getBan,

    listCharacters: onContent.listCharacters,
    getCharacter: onContent.getCharacter,
    listCreatorPages: onContent.listCreatorPages,
    getCreatorPage: onContent.getCreatorPage,
    takeDownContent: onContent.takeDownContent,
    restoreContent: onContent.restoreContent,

    bannedOwner,

    /** The internals the appeals, notices and transparency parts of this domain build on (same tables, same rules). */
    internals: { content, liftBans: bans.liftBans, RESOURCE },
  };
}

export type ModerationService = ReturnType<typeof createModerationService>;
