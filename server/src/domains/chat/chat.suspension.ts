import type { Logger } from "pino";
import type { Config } from "../../config.ts";
import type { PolicyHitSource } from "../../contract/chat.ts";
import type { Db } from "../../db/client.ts";
import type { ListParams } from "../../db/paging.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import type { AuditService } from "../audit/audit.service.ts";
import type { ReportBody } from "../moderation/moderation.schema.ts";
import type { SuspensionFilter } from "./chat.admin.schema.ts";
import type { ChatPolicy } from "./policy.ts";

export interface PolicyHit {
  userId: number;
  source: PolicyHitSource;
  rule: string;
  excerpt: string;
  conversationId?: number;
  characterId?: number;
}

/**
 * Policy hits and the suspension they lead to: CHAT_POLICY_STRIKES hits not lifted by staff suspend chat for the
 * account, until staff lift it.
 */
export function createSuspensions(o: {
  db: Db;
  config: Config;
  log: Logger;
  policy: ChatPolicy;
  /** Files a report as the system (moderation.fileReport with no reporter). */
  fileReport: (input: ReportBody) => Promise<unknown>;
  /** Lifting a suspension is a staff action, written to the audit log in its own transaction. */
  audit: AuditService;
}) {
  const { db, config } = o;
  /** Hits that count toward a suspension: every one not yet lifted by staff. */
  const counting = (userId: number) => ({ userId, liftedAt: null });

  async function suspended(userId: number): Promise<boolean> {
    return (await db.chatPolicyHit.count({ where: counting(userId) })) >= config.CHAT_POLICY_STRIKES;
  }

  /** One account's suspension: whether chat is suspended, and the hits that count toward it (why it was imposed). */
  async function suspensionOf(userId: number) {
    const user = await db.user.findUnique({ where: { id: userId }, select: { id: true } });
    if (!user) return null;
    const hits = await db.chatPolicyHit.findMany({ where: counting(userId), orderBy: { id: "asc" } });
    return {
      id: userId,
      userId,
      suspended: hits.length >= config.CHAT_POLICY_STRIKES,
      strikes: config.CHAT_POLICY_STRIKES,
      hits: hits.length,
      lastHitAt: hits.at(-1)?.createdAt ?? null,
      policyHits: hits,
    };
  }

  async function assertChatAllowed(userId: number) {
    if (await suspended(userId)) throw HttpError.forbidden(MSG.chatSuspended);
  }

  /**
   * A refused attempt, kept for moderators. The attempt that reaches CHAT_POLICY_STRIKES suspends chat for the account
   * (every later call is refused) and files an underage report about the conversation or character, which also
   * suspends that content at once.
   */
  async function recordHit(h: PolicyHit) {
    await db.chatPolicyHit.create({
      data: {
        userId: h.userId,
        source: h.source,
        rule: h.rule,
        excerpt: h.excerpt.slice(0, 1000),
        conversationId: h.conversationId,
        characterId: h.characterId,
      },
    });
    const count = await db.chatPolicyHit.count({ where: counting(h.userId) });
    if (count !== config.CHAT_POLICY_STRIKES) return;
    const target = h.conversationId
      ? { target_type: "conversation" as const, target_id: h.conversationId }
      : h.characterId
        ? { target_type: "character" as const, target_id: h.characterId }
        : await db.conversation
            .findFirst({ where: { userId: h.userId }, orderBy: { id: "desc" }, select: { id: true } })
            .then((c) => (c ? { target_type: "conversation" as const, target_id: c.id } : null));
    o.log.warn({ userId: h.userId, hits: count }, "chat suspended after repeated policy hits");
    if (target)
      await o.fileReport({ ...target, reason: "underage", details: `Automatic: chat suspended after ${count} refused attempts (last rule: ${h.rule}).` });
  }

  /** A person's message the policy refuses is recorded and answered 400. */
  async function checkUserText(userId: number, conversationId: number, content: string) {
    const rule = await o.policy.checkText(content);
    if (!rule) return;
    await recordHit({ userId, source: "user_message", rule, excerpt: content, conversationId });
    throw HttpError.badRequest(MSG.chatRefused);
  }

  /**
   * Accounts whose chat is suspended now (CHAT_POLICY_STRIKES unlifted hits or more), with how many hits, the last
   * one and the rules. Suspended accounts are few, so the groups are sorted and paged here.
   */
  async function listSuspensions(params: ListParams<SuspensionFilter>) {
    const groups = await db.chatPolicyHit.groupBy({
      by: ["userId"],
      where: { liftedAt: null, ...(params.filter.id ? { userId: { in: params.filter.id } } : {}) },
      having: { userId: { _count: { gte: config.CHAT_POLICY_STRIKES } } },
      _count: { _all: true },
      _max: { createdAt: true },
    });
    const rows = groups.map((g) => ({ id: g.userId, userId: g.userId, hits: g._count._all, lastHitAt: g._max.createdAt }));
    const key = params.sort.field as "id" | "hits" | "lastHitAt";
    const dir = params.sort.order === "asc" ? 1 : -1;
    rows.sort((a, b) => dir * (Number(a[key] ?? 0) - Number(b[key] ?? 0)) || a.id - b.id);
    const [from, to] = params.range;
    return { rows: rows.slice(from, to + 1), total: rows.length, from };
  }

  /**
   * Lifts a suspension: the counting hits are marked lifted (kept for the record, no longer counted) and the
   * action is audited with the staff member's reason, in one transaction. 409 when chat is not suspended.
   */
  async function liftSuspension(staffId: number, userId: number, reason: string) {
    await db.$transaction(async (tx) => {
      const hits = await tx.chatPolicyHit.findMany({ where: counting(userId), select: { id: true, rule: true } });
      if (hits.length < config.CHAT_POLICY_STRIKES) throw HttpError.conflict("Chat is not suspended on this account");
      const lifted = await tx.chatPolicyHit.updateMany({
        where: { id: { in: hits.map((h) => h.id) }, liftedAt: null },
        data: { liftedAt: new Date(), liftedById: staffId },
      });
      // a concurrent lift got there first: one of the two is the lift
      if (lifted.count !== hits.length) throw HttpError.conflict("Chat is not suspended on this account");
      await o.audit.record(tx, {
        staffId,
        action: "lift_chat_suspension",
        resource: "User",
        resourceId: userId,
        before: { suspended: true, hits: hits.map((h) => h.id), rules: [...new Set(hits.map((h) => h.rule))] },
        after: { suspended: false },
        reason,
      });
    });
    return suspensionOf(userId);
  }

  return { suspended, suspensionOf, assertChatAllowed, recordHit, checkUserText, listSuspensions, liftSuspension };
}

export type Suspensions = ReturnType<typeof createSuspensions>;
