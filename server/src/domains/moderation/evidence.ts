import crypto from "node:crypto";
import type { Db, Tx } from "../../db/client.ts";
import { matching, pageOf, type ListParams } from "../../db/paging.ts";
import type { AuditService } from "../audit/audit.service.ts";
import type { ReportTarget } from "../../db/generated/enums.ts";
import type { ReportedMedia } from "./moderated-content.ts";
import { lockEvidenceTarget } from "./moderation.queries.ts";

/** The restricted store: every evidence file's key starts here, and nothing that expires or deletes media looks here. */
export const EVIDENCE_PREFIX = "evidence/";

/** What the evidence store needs of media storage. */
export interface EvidenceStorage {
  exists(key: string): Promise<boolean>;
  get(key: string): Promise<Buffer>;
  put(key: string, body: Buffer, contentType: string): Promise<void>;
}

const EXTENSION: Record<string, string> = { "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp", "video/mp4": "mp4", "audio/mpeg": "mp3" };

/**
 * Copies reported content into the restricted store (docs/decisions/152), once per piece of content: the copy is
 * what a CyberTipline report is made from and what is kept for EVIDENCE_RETENTION_DAYS, whatever becomes of the
 * original (expiry, the owner deleting it, a takedown). Runs in the report's transaction; a file written for a
 * transaction that then fails is left behind under evidence/, which is the safe side.
 */
interface EvidenceDeps {
  db: Db;
  audit: AuditService;
  storage: EvidenceStorage & { signedUrl(key: string, ttl?: number): Promise<string> };
  retentionDays: number;
  /** Reverie's own address and contact, the reporter of a CyberTipline report */
  siteUrl: string;
  reporterEmail: string | null;
}

export function createEvidenceService({ db, audit, storage, retentionDays, siteUrl, reporterEmail }: EvidenceDeps) {
  return {
    list: (params: ListParams<{ id?: number[] }>) => pageOf(db.evidence, params, matching(params.filter)),
    get: (id: number) => db.evidence.findUnique({ where: { id } }),
    /** The preserved file itself, for an admin, through a signed URL of a few minutes. */
    async file(id: number) {
      const e = await db.evidence.findUnique({ where: { id } });
      return e && { id, kind: e.kind, url: await storage.signedUrl(e.storageKey, 300) };
    },
    /** The CyberTipline package, written to the audit log as an export by this admin with the reason given. */
    exportPackage: (staffId: number, id: number, reason: string) =>
      db.$transaction(async (tx) => {
        const pkg = await cyberTiplinePackage(tx, id, { reporterEmail, siteUrl });
        if (!pkg) return null;
        await audit.record(tx, {
          staffId,
          action: "export",
          resource: "Evidence",
          resourceId: id,
          before: null,
          after: { evidenceId: id, sha256: pkg.files[0].originalFileHash[0].value },
          reason,
        });
        return { ...pkg, prepared_by_staff_id: staffId };
      }),

    async preserve(tx: Tx, t: { targetType: ReportTarget; targetId: number; userId: number | null; reportId: number | null }, media: ReportedMedia | null) {
      // content without a file, or whose file is already gone, leaves nothing to copy; the report itself still stands
      if (!media || !(await storage.exists(media.key))) return null;
      // one copy per content; the advisory lock keeps two reports at once from copying twice
      await lockEvidenceTarget.rows(tx, t);
      const existing = await tx.evidence.findUnique({ where: { targetType_targetId: { targetType: t.targetType, targetId: t.targetId } } });
      if (existing) return existing;
      const body = await storage.get(media.key);
      const ext = (media.mime && EXTENSION[media.mime]) ?? media.key.split(".").pop() ?? "bin";
      const storageKey = `${EVIDENCE_PREFIX}${t.targetType}-${t.targetId}-${crypto.randomBytes(6).toString("hex")}.${ext}`;
      await storage.put(storageKey, body, media.mime ?? "application/octet-stream");
      return tx.evidence.create({
        data: {
          ...t,
          sourceKey: media.key,
          storageKey,
          kind: media.kind,
          mime: media.mime ?? null,
          sizeBytes: body.length,
          sha256: crypto.createHash("sha256").update(body).digest("hex"),
          md5: crypto.createHash("md5").update(body).digest("hex"),
          keepUntil: new Date(Date.now() + retentionDays * 86_400_000),
        },
      });
    },
  };
}

export type EvidenceService = ReturnType<typeof createEvidenceService>;

/**
 * The fields the NCMEC CyberTipline report asks for (its reporting API: incidentSummary, internetDetails,
 * reporter, personOrUserReported with espIdentifier / screenName / ipCaptureEvent, and per file its name, hashes,
 * whether it was viewed and is public), filled from what Reverie holds. Submitting it stays a human act: an admin
 * reviews this package and files the report at report.cybertip.org.
 */
export async function cyberTiplinePackage(db: Db | Tx, evidenceId: number, o: { reporterEmail: string | null; siteUrl: string }) {
  const e = await db.evidence.findUnique({ where: { id: evidenceId } });
  if (!e) return null;
  const [report, user, logins] = await Promise.all([
    e.reportId === null ? null : db.report.findUnique({ where: { id: e.reportId } }),
    e.userId === null
      ? null
      : db.user.findUnique({
          where: { id: e.userId },
          select: { id: true, uuid: true, email: true, googleSub: true, nickname: true, playerUid: true, createdAt: true },
        }),
    e.userId === null
      ? []
      : db.session.findMany({ where: { userId: e.userId, ip: { not: null } }, orderBy: { id: "desc" }, take: 20, select: { ip: true, createdAt: true } }),
  ]);
  return {
    evidence_id: e.id,
    generated_at: new Date().toISOString(),
    submission: "Not submitted. Review the package and file it at https://report.cybertip.org (18 U.S.C. 2258A).",
    incidentSummary: {
      incidentType: "Child Pornography (possession, manufacture, and distribution)",
      incidentDateTime: (report?.createdAt ?? e.createdAt).toISOString(),
      incidentDateTimeDescription: report ? `Reported to Reverie (report #${report.id}, ${report.source})` : "Confirmed by a Reverie moderator",
    },
    internetDetails: [
      { webPageIncident: { url: [report?.reportedUrl ?? `${o.siteUrl}/home?item=${e.targetId}`], additionalInfo: `Reverie ${e.targetType} #${e.targetId}` } },
    ],
    reporter: { reportingPerson: { email: o.reporterEmail }, companyUrl: o.siteUrl },
    personOrUserReported: user ? reportedPerson(user, logins) : null,
    files: [
      {
        fileName: e.storageKey.slice(EVIDENCE_PREFIX.length),
        originalFileName: e.sourceKey,
        mimeType: e.mime,
        sizeBytes: e.sizeBytes,
        originalFileHash: [
          { hashType: "SHA256", value: e.sha256 },
          { hashType: "MD5", value: e.md5 },
        ],
        fileViewedByEsp: null,
        publiclyAvailable: null,
        details: report?.details ? [{ name: "report details", value: report.details }] : [],
      },
    ],
    additionalInfo: report ? `Reason given: ${report.reason}. ${report.details}`.trim() : "",
    keep_until: e.keepUntil.toISOString(),
  };
}

/** The account behind reported content, in CyberTipline's terms, with its recent login addresses. */
function reportedPerson(
  user: { id: number; uuid: string; email: string | null; googleSub: string | null; nickname: string | null; playerUid: string | null; createdAt: Date },
  logins: { ip: string | null; createdAt: Date }[],
) {
  return {
    espIdentifier: String(user.id),
    espService: "Reverie",
    screenName: user.nickname ?? user.uuid,
    personOrUserReportedPerson: { email: user.email ? [user.email] : [] },
    additionalIdentifiers: {
      uuid: user.uuid,
      googleSubject: user.googleSub,
      channelPlayerId: user.playerUid,
      accountCreated: user.createdAt.toISOString(),
    },
    ipCaptureEvent: logins.map((l) => ({ ipAddress: l.ip, eventName: "Login", dateTime: l.createdAt.toISOString() })),
  };
}
