import crypto from "node:crypto";
import type { Db, Tx } from "../../db/client.ts";
import type { BanMarkKind, ContentState, DecisionAction, DecisionGround, ReportTarget, UploadKind } from "../../db/generated/enums.ts";
import { matching, pageOf, type ListParams } from "../../db/paging.ts";
import { HttpError } from "../../http/errors.ts";
import type { AuditService } from "../audit/audit.service.ts";
import type { BanFilter, ContentFilter, NoticeBody, ReportBody, ReportFilter } from "./moderation.schema.ts";
import { resolveContentLink } from "./content-link.ts";
import { ACTION_TARGET_HOURS } from "../../contract/moderation.ts";

interface Deps {
  db: Db;
  audit: AuditService;
  /** Ends every login of a user at once (auth.revokeUserSessions). */
  revokeUserSessions: (userId: number, tx: Tx) => Promise<void>;
  /** Tasks, uploads, characters and conversations as their owning domains (generation, uploads, chat) let moderation see and change them. */
  owned: Record<ReportTarget, ModeratedContent>;
  /** Fails and refunds the user's unfinished generation tasks (generation.cancelForAccount). */
  cancelUserTasks: (tx: Tx, userId: number, error: string) => Promise<void>;
  /** Puts taken-down media on the perceptual-hash blocklist (screening's blocklist.blockTakenDown, issue 19). */
  blockTakenDown: (tx: Tx, targetType: ReportTarget, targetId: number) => Promise<void>;
  /** Copies reported content into the restricted evidence store, once per content (evidence.preserve). */
  preserveEvidence: (tx: Tx, t: { targetType: ReportTarget; targetId: number; userId: number | null; reportId: number | null }, media: ReportedMedia | null) => Promise<unknown>;
  /** A signed, short-lived browser URL of a stored file (storage.signedUrl), for the console's preview. */
  signedUrl: (key: string) => Promise<string>;
  /** Sends an email (the mailer: outbox first, then SMTP when configured); notifiers of the public form are told receipt and outcome. */
  sendMail: (mail: { to: string; subject: string; body: string }) => Promise<void>;
  /** Upheld (not reversed) takedowns after which an account is suspended automatically (REPEAT_OFFENDER_TAKEDOWNS). */
  repeatOffenderTakedowns: number;
}

/** What a statement of reasons records; see docs/decisions/151. */
interface DecisionInput {
  userId: number;
  action: DecisionAction;
  ground: DecisionGround;
  explanation: string;
  /** the moderator who decided; null: the system, which makes the decision automated */
  decidedById: number | null;
  targetType?: ReportTarget;
  targetId?: number;
  banId?: number;
  reportId?: number;
}

/** What the public notice form adds to a report. */
export interface NoticeFields {
  reportedUrl: string;
  contactName: string | null;
  contactEmail: string;
  swornAt: Date | null;
}

/** A staff decision with the ground it rests on (a report's reason when it comes from a report). */
export interface Decided {
  reason: string;
  ground?: DecisionGround;
}

/** What a report needs to know about the reported thing: whose it is, its state, and whether everyone can see it. */
export interface Reported {
  userId: number | null;
  state: ContentState;
  /** Shared with everyone: a creation in the gallery, a shared character, a creator page (still so while suspended by a report, not once removed). */
  isPublic: boolean;
}

/** How a reported thing is looked up and its visibility changed; one per kind of reportable content. */
export interface ModeratedContent {
  find(c: Tx | Db, id: number): Promise<Reported | null>;
  /** Sets the state; with `from`, only content currently in that state changes. True when it changed. */
  setState(c: Tx, id: number, state: ContentState, from?: ContentState): Promise<boolean>;
  /** The stored file a moderator previews (and evidence keeps), when the content has one. */
  media?(c: Tx | Db, id: number): Promise<ReportedMedia | null>;
  /** The content whose file is stored under this key (a media link pasted into the public notice form). */
  byMediaKey?(c: Tx | Db, key: string): Promise<number | null>;
}

export interface ReportedMedia {
  key: string;
  kind: UploadKind;
  mime?: string;
}

/** A creator page by its home link (`https://<site>/<homeLink>` in the public notice form). */
export const creatorPageByLink = async (c: Tx | Db, homeLink: string) => (await c.creatorPage.findFirst({ where: { homeLink: { equals: homeLink, mode: "insensitive" } }, select: { id: true } }))?.id ?? null;

/** The audit log's name for each kind of content. */
const RESOURCE: Record<ReportTarget, string> = { task: "GenerationTask", upload: "Upload", character: "Character", conversation: "Conversation", creator_page: "CreatorPage" };
const contentState = {
  character: (c: Tx, id: number) => c.character.findUnique({ where: { id }, select: { id: true, userId: true, state: true } }),
  creator_page: (c: Tx, id: number) => c.creatorPage.findUnique({ where: { id }, select: { id: true, userId: true, state: true } }),
};

/** The console's filter on characters or creator pages: owner, state, and a search in the name (`title` for pages). */
function contentWhere(f: ContentFilter, searched: "name" | "title") {
  return { ...matching(f, ["userId", "state"]), ...(f.q ? { [searched]: { contains: f.q, mode: "insensitive" } } : {}) };
}

/**
 * A report with how long it has waited (until now, or until it was resolved) and whether that passed the 48-hour
 * target (ACTION_TARGET_HOURS), which the queue sorts and colours by.
 */
function withAge<R extends { createdAt: Date; resolvedAt: Date | null }>(r: R) {
  const ageSeconds = Math.floor(((r.resolvedAt ?? new Date()).getTime() - r.createdAt.getTime()) / 1000);
  return { ...r, ageSeconds, targetSeconds: ACTION_TARGET_HOURS * 3600, breached: ageSeconds > ACTION_TARGET_HOURS * 3600 };
}

/**
 * Reports, takedowns and bans (ARCHITECTURE.md §8). An underage report suspends public content (or the reporter's own)
 * in the same transaction that files it; a ban revokes every token of the account, and fails its renders, before it commits.
 */
export function createModerationService({ db, audit, revokeUserSessions, owned, cancelUserTasks, blockTakenDown, preserveEvidence, signedUrl, sendMail, repeatOffenderTakedowns }: Deps) {
  const content: Record<ReportTarget, ModeratedContent> = owned;

  /** Writes the statement of reasons the person is shown (notices page, ban screen) in the deciding transaction. */
  function recordDecision(tx: Tx, d: DecisionInput) {
    return tx.decision.create({
      data: { ...d, automated: d.decidedById === null, appealKey: crypto.randomBytes(24).toString("base64url") },
    });
  }

  /**
   * What the ban covers besides the account (docs/decisions/154): its email, Google subject and channel player id, and
   * every device cookie and fingerprint its logins came from. They count while the ban is in force.
   */
  async function markBanned(tx: Tx, banId: number, userId: number) {
    const user = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, googleSub: true, playerUid: true } });
    const sessions = await tx.session.findMany({ where: { userId }, select: { deviceId: true, fingerprint: true } });
    const marks: { kind: BanMarkKind; value: string | null }[] = [
      { kind: "email", value: user.email?.toLowerCase() ?? null },
      { kind: "google_sub", value: user.googleSub },
      { kind: "player_uid", value: user.playerUid },
      ...sessions.flatMap((s) => [
        { kind: "device_id" as const, value: s.deviceId },
        { kind: "fingerprint" as const, value: s.fingerprint },
      ]),
    ];
    const data = marks.filter((m): m is { kind: BanMarkKind; value: string } => m.value !== null).map((m) => ({ banId, ...m }));
    if (data.length) await tx.banMark.createMany({ data, skipDuplicates: true });
  }

  /** `staffId` null: the system bans (repeat offenders), which its statement of reasons says. */
  async function ban(tx: Tx, staffId: number | null, userId: number, d: Decided) {
    const before = await tx.user.findUnique({ where: { id: userId }, select: { id: true, bannedAt: true } });
    if (!before) throw HttpError.notFound();
    const created = await tx.ban.create({ data: { userId, reason: d.reason, staffId } });
    if (!before.bannedAt) await tx.user.update({ where: { id: userId }, data: { bannedAt: created.createdAt } });
    await revokeUserSessions(userId, tx);
    // renders in progress are not finished for, nor delivered to, a banned account
    await cancelUserTasks(tx, userId, "The account was banned");
    await markBanned(tx, created.id, userId);
    await recordDecision(tx, { userId, action: "ban", ground: d.ground ?? "other", explanation: d.reason, decidedById: staffId, banId: created.id });
    await audit.record(tx, { staffId, action: "ban", resource: "User", resourceId: userId, before, after: { id: userId, bannedAt: before.bannedAt ?? created.createdAt, banId: created.id }, reason: d.reason });
    return created;
  }

  /** Lifts every ban in force; their statements count as reversed. */
  async function liftBans(tx: Tx, staffId: number, userId: number, reason: string) {
    const before = await tx.user.findUnique({ where: { id: userId }, select: { id: true, bannedAt: true } });
    if (!before) throw HttpError.notFound();
    if (!before.bannedAt) throw HttpError.conflict("This account is not banned");
    const now = new Date();
    const lifted = await tx.ban.findMany({ where: { userId, liftedAt: null }, select: { id: true } });
    await tx.ban.updateMany({ where: { userId, liftedAt: null }, data: { liftedAt: now, liftedById: staffId } });
    await tx.decision.updateMany({ where: { banId: { in: lifted.map((b) => b.id) }, reversedAt: null }, data: { reversedAt: now } });
    const after = await tx.user.update({ where: { id: userId }, data: { bannedAt: null }, select: { id: true, bannedAt: true } });
    await audit.record(tx, { staffId, action: "unban", resource: "User", resourceId: userId, before, after, reason });
    return after;
  }

  /**
   * After a takedown: an account whose upheld (never reversed) takedowns reach REPEAT_OFFENDER_TAKEDOWNS is suspended
   * by the system, with its own statement of reasons (DSA art. 23). An account already banned is left as it is.
   */
  async function suspendRepeatOffender(tx: Tx, userId: number) {
    const upheld = await tx.decision.count({ where: { userId, action: "takedown", reversedAt: null } });
    if (upheld < repeatOffenderTakedowns) return;
    const user = await tx.user.findUnique({ where: { id: userId }, select: { bannedAt: true } });
    if (!user || user.bannedAt) return;
    await ban(tx, null, userId, { reason: `${upheld} upheld takedowns`, ground: "repeat_offender" });
  }

  /**
   * DSA art. 16: the notifier is told that the notice arrived and, once decided, what was decided. Sent after the
   * decision commits (a mail never rolls a decision back); English, as the notifier has no account and no language.
   */
  async function tellNotifier(report: { id: number; source: string; contactEmail: string | null }, outcome: "received" | "dismissed" | "actioned") {
    if (report.source !== "notice" || !report.contactEmail) return;
    const body = {
      received: `We received your notice #${report.id}. A moderator will review it; valid removal requests are acted on within ${ACTION_TARGET_HOURS} hours.`,
      dismissed: `We reviewed your notice #${report.id} and found no breach of our rules, so the content stays available.`,
      actioned: `We reviewed your notice #${report.id} and removed the content.`,
    }[outcome];
    await sendMail({ to: report.contactEmail, subject: `Reverie: your notice #${report.id}`, body });
  }

  /** Content reported, or confirmed, as showing a minor is copied to the evidence store (18 U.S.C. 2258A, docs/decisions/152). */
  async function preserve(tx: Tx, targetType: ReportTarget, targetId: number, userId: number | null, reportId: number | null) {
    await preserveEvidence(tx, { targetType, targetId, userId, reportId }, (await content[targetType].media?.(tx, targetId)) ?? null);
  }

  /** The statement for a takedown of someone's content, then the repeat-offender rule. */
  async function decideTakedown(tx: Tx, staffId: number, targetType: ReportTarget, targetId: number, userId: number | null, d: Decided, reportId?: number) {
    if (userId === null) return;
    await recordDecision(tx, { userId, action: "takedown", ground: d.ground ?? "other", explanation: d.reason, decidedById: staffId, targetType, targetId, reportId });
    await suspendRepeatOffender(tx, userId);
  }

  async function resolve(tx: Tx, staffId: number, reportId: number, status: "dismissed" | "actioned", action: string, reason: string) {
    const before = await tx.report.findUnique({ where: { id: reportId } });
    if (!before) throw HttpError.notFound();
    if (before.status !== "open") throw HttpError.conflict("This report is already resolved");
    const after = await tx.report.update({ where: { id: reportId, status: "open" }, data: { status, resolvedAt: new Date(), resolvedById: staffId } });
    await audit.record(tx, { staffId, action, resource: "Report", resourceId: reportId, before, after, reason });
    return after;
  }

  /**
   * A dismissed underage report gives back what it suspended, unless another open underage report about the same
   * content still holds it; content taken down stays down (only "suspended" turns back to "active").
   */
  async function liftSuspension(tx: Tx, staffId: number, report: { id: number; targetType: ReportTarget; targetId: number; suspendedContent: boolean }, reason: string) {
    if (!report.suspendedContent) return;
    // reports about one piece of content are resolved one at a time, so two dismissals cannot both see the other still open
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`report-target:${report.targetType}:${report.targetId}`}, 0))`;
    const holding = await tx.report.count({ where: { targetType: report.targetType, targetId: report.targetId, suspendedContent: true, status: "open", id: { not: report.id } } });
    if (holding) return;
    if (await content[report.targetType].setState(tx, report.targetId, "active", "suspended")) {
      await tx.decision.updateMany({ where: { action: "hold", targetType: report.targetType, targetId: report.targetId, reversedAt: null }, data: { reversedAt: new Date() } });
      await audit.record(tx, { staffId, action: "restore", resource: RESOURCE[report.targetType], resourceId: report.targetId, before: { id: report.targetId, state: "suspended" }, after: { id: report.targetId, state: "active", reportId: report.id }, reason });
    }
  }

  /** Removes the content; open reports about it are answered by the same takedown. */
  async function removeContent(tx: Tx, staffId: number, targetType: ReportTarget, targetId: number) {
    await content[targetType].setState(tx, targetId, "removed");
    await blockTakenDown(tx, targetType, targetId);
    await tx.report.updateMany({ where: { targetType, targetId, status: "open" }, data: { status: "actioned", resolvedAt: new Date(), resolvedById: staffId } });
  }

  async function takeDown(tx: Tx, staffId: number, reportId: number, reason: string) {
    const report = await resolve(tx, staffId, reportId, "actioned", "takedown", reason);
    await removeContent(tx, staffId, report.targetType, report.targetId);
    if (report.reason === "underage") await preserve(tx, report.targetType, report.targetId, report.targetUserId, report.id);
    await decideTakedown(tx, staffId, report.targetType, report.targetId, report.targetUserId, { reason, ground: report.reason }, report.id);
    return report;
  }

  const service = {
    /**
     * POST /api/report. Public content (a shared creation, a shared character, a creator page) may be reported by
     * anyone, signed in or not; private content (a conversation included) only by its owner, or by the system (chat's
     * policy strikes). Anything else answers exactly as an id that does not exist, so a report never tells whether
     * someone's private work is there. An underage report suspends the content at once (audited, as the system) when
     * it is public, comes from its owner or from the system (docs/decisions/071).
     */
    async fileReport(reporterUserId: number | null, input: ReportBody, o: { system?: boolean; notice?: NoticeFields } = {}) {
      return db.$transaction(async (tx) => {
        const target = await content[input.target_type].find(tx, input.target_id);
        const trusted = o.system === true || (reporterUserId !== null && target?.userId === reporterUserId);
        if (!target || !(target.isPublic || trusted)) throw HttpError.notFound();
        const suspends = input.reason === "underage" && target.state !== "removed";
        const report = await tx.report.create({
          data: {
            reporterUserId,
            targetType: input.target_type,
            targetId: input.target_id,
            targetUserId: target.userId,
            reason: input.reason,
            details: input.details,
            suspendedContent: suspends,
            ...(o.notice ? { source: "notice" as const, ...o.notice } : {}),
          },
        });
        if (input.reason === "underage") await preserve(tx, input.target_type, input.target_id, target.userId, report.id);
        // underage: hidden from everyone before any moderator looks at it; removed content stays removed
        if (suspends && (await content[input.target_type].setState(tx, input.target_id, "suspended", "active"))) {
          if (target.userId !== null) {
            await recordDecision(tx, { userId: target.userId, action: "hold", ground: "underage", explanation: "", decidedById: null, targetType: input.target_type, targetId: input.target_id, reportId: report.id });
          }
          await audit.record(tx, {
            staffId: null,
            action: "suspend",
            resource: RESOURCE[input.target_type],
            resourceId: input.target_id,
            before: { id: input.target_id, state: "active" },
            after: { id: input.target_id, state: "suspended", reportId: report.id },
            reason: `underage report #${report.id}`,
          });
        }
        return { id: report.id };
      });
    },

    /**
     * POST /api/notices/report, the public notice-and-action form (docs/decisions/150). The link is resolved to content
     * and filed under fileReport's rules for someone without an account: only public content is found, so a link to
     * private or missing content answers exactly alike (404) and nothing is written.
     */
    async fileNotice(input: NoticeBody) {
      const target = await resolveContentLink(db, input.url, content, creatorPageByLink);
      if (!target) throw HttpError.notFound();
      const filed = await service.fileReport(
        null,
        { target_type: target.type, target_id: target.id, reason: input.reason, details: input.details },
        { notice: { reportedUrl: input.url, contactName: input.name || null, contactEmail: input.email, swornAt: input.sworn ? new Date() : null } },
      );
      await tellNotifier({ id: filed.id, source: "notice", contactEmail: input.email }, "received");
      return filed;
    },

    listReports: async (params: ListParams<ReportFilter>) => {
      const page = await pageOf(db.report, params, matching(params.filter, ["status", "reason", "source", "targetType", "targetUserId", "reporterUserId"]));
      return { ...page, rows: page.rows.map(withAge) };
    },

    async getReport(id: number) {
      const r = await db.report.findUnique({ where: { id } });
      return r ? withAge(r) : null;
    },

    /** The reported file as the moderator sees it (a signed URL of a few minutes); null when the content has none. */
    async preview(reportId: number) {
      const r = await db.report.findUnique({ where: { id: reportId }, select: { targetType: true, targetId: true } });
      if (!r) throw HttpError.notFound();
      const media = await content[r.targetType].media?.(db, r.targetId);
      return { id: reportId, media: media ? { kind: media.kind, url: await signedUrl(media.key) } : null };
    },

    /** Nothing wrong found: what the report suspended is shown again (audited), unless another open report holds it. */
    async dismiss(staffId: number, reportId: number, reason: string) {
      const report = await db.$transaction(async (tx) => {
        const r = await resolve(tx, staffId, reportId, "dismissed", "dismiss", reason);
        await liftSuspension(tx, staffId, r, reason);
        return r;
      });
      await tellNotifier(report, "dismissed");
      return report;
    },

    async takeDown(staffId: number, reportId: number, reason: string) {
      const report = await db.$transaction((tx) => takeDown(tx, staffId, reportId, reason));
      await tellNotifier(report, "actioned");
      return report;
    },

    /** Takes the reported content down and bans its owner, in one transaction. */
    async banUploader(staffId: number, reportId: number, reason: string) {
      const report = await db.$transaction(async (tx) => {
        const r = await takeDown(tx, staffId, reportId, reason);
        if (!r.targetUserId) throw HttpError.conflict("The reported content has no owner to ban");
        // the repeat-offender rule may already have suspended the account in the takedown
        const owner = await tx.user.findUnique({ where: { id: r.targetUserId }, select: { bannedAt: true } });
        if (!owner?.bannedAt) await ban(tx, staffId, r.targetUserId, { reason, ground: r.reason });
        return r;
      });
      await tellNotifier(report, "actioned");
      return report;
    },

    /** A ban from the account itself; `reason` may be a plain string (ground "other"). */
    ban: (staffId: number, userId: number, d: Decided | string) => db.$transaction((tx) => ban(tx, staffId, userId, typeof d === "string" ? { reason: d } : d)),

    /** Lifts every ban in force on the account; the account may log in again. */
    unban: (staffId: number, userId: number, reason: string) => db.$transaction((tx) => liftBans(tx, staffId, userId, reason)),

    listBans: (params: ListParams<BanFilter>) => {
      const f = params.filter;
      return pageOf(db.ban, params, {
        ...matching(f, ["userId", "staffId"]),
        ...(f.active === undefined ? {} : { liftedAt: f.active ? null : { not: null } }),
      });
    },

    getBan: (id: number) => db.ban.findUnique({ where: { id } }),

    listCharacters: (params: ListParams<ContentFilter>) => pageOf(db.character, params, contentWhere(params.filter, "name")),
    getCharacter: (id: number) => db.character.findUnique({ where: { id } }),
    listCreatorPages: (params: ListParams<ContentFilter>) => pageOf(db.creatorPage, params, contentWhere(params.filter, "title")),
    getCreatorPage: (id: number) => db.creatorPage.findUnique({ where: { id } }),

    /** A takedown a moderator starts from the content itself rather than from a report; audited with its reason. */
    takeDownContent: (staffId: number, targetType: "character" | "creator_page", targetId: number, d: Decided | string) =>
      db.$transaction(async (tx) => {
        const decided = typeof d === "string" ? { reason: d } : d;
        const before = await contentState[targetType](tx, targetId);
        if (!before) throw HttpError.notFound();
        if (before.state === "removed") throw HttpError.conflict("This content is already taken down");
        await removeContent(tx, staffId, targetType, targetId);
        const after = await contentState[targetType](tx, targetId);
        await audit.record(tx, { staffId, action: "takedown", resource: RESOURCE[targetType], resourceId: targetId, before, after, reason: decided.reason });
        await decideTakedown(tx, staffId, targetType, targetId, before.userId, decided);
        return after;
      }),

    /**
     * Shows taken-down content again, from the content itself (a mistaken takedown; an appeal reverses through its own
     * path). Conditional on the content still being removed, so two clicks restore it once; audited with its reason.
     */
    restoreContent: (staffId: number, targetType: "character" | "creator_page", targetId: number, reason: string) =>
      db.$transaction(async (tx) => {
        const before = await contentState[targetType](tx, targetId);
        if (!before) throw HttpError.notFound();
        if (!(await content[targetType].setState(tx, targetId, "active", "removed"))) throw HttpError.conflict("This content is not taken down");
        const after = await contentState[targetType](tx, targetId);
        await audit.record(tx, { staffId, action: "restore", resource: RESOURCE[targetType], resourceId: targetId, before, after, reason });
        return after;
      }),

    /**
     * The owner of a ban in force that covers any of these identifiers, or null (auth refuses new accounts with it).
     * A device matches by its cookie or its fingerprint.
     */
    async bannedOwner(c: Tx | Db, who: { email?: string | null; googleSub?: string | null; playerUid?: string | null; deviceId?: string; fingerprint?: string }) {
      const wanted = (
        [
          ["email", who.email?.toLowerCase()],
          ["google_sub", who.googleSub],
          ["player_uid", who.playerUid],
          ["device_id", who.deviceId],
          ["fingerprint", who.fingerprint],
        ] as [BanMarkKind, string | null | undefined][]
      ).filter((w): w is [BanMarkKind, string] => Boolean(w[1]));
      if (!wanted.length) return null;
      const mark = await c.banMark.findFirst({ where: { OR: wanted.map(([kind, value]) => ({ kind, value })), ban: { liftedAt: null } }, select: { ban: { select: { userId: true } } } });
      return mark?.ban.userId ?? null;
    },

    /** The internals the appeals, notices and transparency parts of this domain build on (same tables, same rules). */
    internals: { content, liftBans, RESOURCE },
  };
  return service;
}

export type ModerationService = ReturnType<typeof createModerationService>;
