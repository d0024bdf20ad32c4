import crypto from "node:crypto";
import type { Db, Tx } from "../../db/client.ts";
import { matching, pageOf, type ListParams } from "../../db/paging.ts";
import { HttpError } from "../../http/errors.ts";
import type { AuditService } from "../audit/audit.service.ts";
import type { AppealBody, AppealFilter, DecisionFilter } from "./moderation.schema.ts";
import type { ModerationService } from "./moderation.service.ts";

/** Said when the moderator who made a decision tries to decide its appeal (DSA art. 20: not solely the same person). */
export const SAME_MODERATOR = "A different moderator must decide this appeal";

const decisionWithAppeal = { appeal: true } as const;

/** A statement of reasons as the person reads it (notices page, ban screen), with the key that lets them appeal. */
function asNotice(d: {
  id: number;
  action: string;
  ground: string;
  explanation: string;
  automated: boolean;
  targetType: string | null;
  targetId: number | null;
  appealKey: string;
  createdAt: Date;
  reversedAt: Date | null;
  appeal: { status: string; decisionReason: string | null; decidedAt: Date | null } | null;
}) {
  return {
    id: d.id,
    action: d.action,
    ground: d.ground,
    explanation: d.explanation,
    automated: d.automated,
    target_type: d.targetType,
    target_id: d.targetId,
    created_at: d.createdAt.toISOString(),
    reversed_at: d.reversedAt?.toISOString() ?? null,
    appeal_key: d.appealKey,
    appeal: d.appeal && { status: d.appeal.status, answer: d.appeal.decisionReason, decided_at: d.appeal.decidedAt?.toISOString() ?? null },
  };
}
export type Notice = ReturnType<typeof asNotice>;

/**
 * Statements of reasons and appeals (docs/decisions/151). Every takedown, hold and ban writes a Decision in the
 * moderation transaction that made it; the person reads them here and appeals one with its key; a moderator other
 * than the decider upholds or reverses it, and reversing restores the content (through its owning domain) or the account.
 */
export function createAppealsService({ db, audit, moderation }: { db: Db; audit: AuditService; moderation: ModerationService }) {
  const { content, liftBans, RESOURCE } = moderation.internals;

  /** Gives back what the decision took: the content (active again) or the account (its bans lifted). */
  async function reverse(
    tx: Tx,
    staffId: number,
    d: { id: number; action: string; userId: number; targetType: keyof typeof RESOURCE | null; targetId: number | null; banId: number | null },
    reason: string,
  ) {
    if (d.action === "ban") {
      const ban = d.banId === null ? null : await tx.ban.findUnique({ where: { id: d.banId }, select: { liftedAt: true } });
      if (ban && ban.liftedAt === null) await liftBans(tx, staffId, d.userId, reason);
    } else if (d.targetType !== null && d.targetId !== null) {
      const owner = content[d.targetType];
      const from = (await owner.find(tx, d.targetId))?.state;
      if (from && from !== "active" && (await owner.setState(tx, d.targetId, "active", from))) {
        await audit.record(tx, {
          staffId,
          action: "restore",
          resource: RESOURCE[d.targetType],
          resourceId: d.targetId,
          before: { id: d.targetId, state: from },
          after: { id: d.targetId, state: "active", decisionId: d.id },
          reason,
        });
      }
      // reports still holding it open are answered by the reversal
      await tx.report.updateMany({
        where: { targetType: d.targetType, targetId: d.targetId, status: "open" },
        data: { status: "dismissed", resolvedAt: new Date(), resolvedById: staffId },
      });
    }
    await tx.decision.updateMany({ where: { id: d.id, reversedAt: null }, data: { reversedAt: new Date() } });
  }

  return {
    /** GET /api/notices: every decision about the signed-in person, newest first. */
    async listForUser(userId: number) {
      const rows = await db.decision.findMany({ where: { userId }, orderBy: { id: "desc" }, take: 100, include: decisionWithAppeal });
      return { list: rows.map(asNotice) };
    },

    /** The statement behind a ban, for the ban screen (auth's banned answer). */
    async forBan(c: Tx | Db, banId: number) {
      const d = await c.decision.findUnique({ where: { banId }, include: decisionWithAppeal });
      return d && asNotice(d);
    },

    /**
     * POST /api/notices/appeal. The key is the statement's own; a wrong key answers like a missing id. One appeal per
     * decision; a reversed decision cannot be appealed.
     */
    async fileAppeal(input: AppealBody) {
      return db.$transaction(async (tx) => {
        const d = await tx.decision.findUnique({ where: { id: input.id }, include: decisionWithAppeal });
        const given = Buffer.from(input.key);
        if (!d || given.length !== Buffer.byteLength(d.appealKey) || !crypto.timingSafeEqual(given, Buffer.from(d.appealKey))) throw HttpError.notFound();
        if (d.reversedAt) throw HttpError.conflict("This decision has already been reversed");
        if (d.appeal) throw HttpError.conflict("This decision has already been appealed");
        const appeal = await tx.appeal.create({ data: { decisionId: d.id, text: input.text } });
        return { id: appeal.id, status: appeal.status };
      });
    },

    listAppeals: (params: ListParams<AppealFilter>) => pageOf(db.appeal, params, matching(params.filter, ["status"]), { include: { decision: true } }),
    getAppeal: (id: number) => db.appeal.findUnique({ where: { id }, include: { decision: true } }),
    listDecisions: (params: ListParams<DecisionFilter>) =>
      pageOf(db.decision, params, matching(params.filter, ["userId", "action", "ground"]), { include: decisionWithAppeal }),
    getDecision: (id: number) => db.decision.findUnique({ where: { id }, include: decisionWithAppeal }),

    /**
     * Upholds or reverses an appealed decision, audited. The moderator who made the decision may not decide its appeal;
     * an automated decision may be decided by any moderator.
     */
    decide: (staffId: number, appealId: number, outcome: "upheld" | "reversed", reason: string) =>
      db.$transaction(async (tx) => {
        const before = await tx.appeal.findUnique({ where: { id: appealId }, include: { decision: true } });
        if (!before) throw HttpError.notFound();
        if (before.decision.decidedById === staffId) throw HttpError.forbidden(SAME_MODERATOR);
        // conditional, so two moderators deciding at once cannot both act on it
        const changed = await tx.appeal.updateMany({
          where: { id: appealId, status: "open" },
          data: { status: outcome, decidedById: staffId, decidedAt: new Date(), decisionReason: reason },
        });
        if (changed.count === 0) throw HttpError.conflict("This appeal is already decided");
        const after = await tx.appeal.findUniqueOrThrow({ where: { id: appealId } });
        if (outcome === "reversed") await reverse(tx, staffId, before.decision, reason);
        const { decision, ...appeal } = before;
        await audit.record(tx, {
          staffId,
          action: outcome === "reversed" ? "appeal_reversed" : "appeal_upheld",
          resource: "Appeal",
          resourceId: appealId,
          before: { ...appeal, decisionId: decision.id },
          after,
          reason,
        });
        return after;
      }),
  };
}

export type AppealsService = ReturnType<typeof createAppealsService>;
