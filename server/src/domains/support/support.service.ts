import type { AppAbility } from "../../authz/abilities.ts";
import type { Tx } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/client.ts";
import type { SupportAuthor, SupportThreadStatus } from "../../contract/support.ts";
import { createSupportInbox, type SupportDeps } from "./support.inbox.ts";
import type { SupportMessageBody, SupportThreadAnswer } from "./support.schema.ts";

/** A thread still in conversation; a closed one stays readable and a new message starts a new thread. */
const NOT_CLOSED: SupportThreadStatus[] = ["open", "answered"];

/**
 * The support inbox (issue 35 item 3, docs/decisions/281): one conversation at a time per person (guests too, on their
 * guest account), about the order it was last opened from. The person writes and reads here; staff answer through the
 * inbox (support.inbox.ts).
 */
export function createSupportService(deps: SupportDeps) {
  const { db } = deps;

  const latest = (userId: number) =>
    db.supportThread.findFirst({ where: { userId }, orderBy: { id: "desc" }, include: { messages: { orderBy: { id: "asc" } } } });

  /** Appends to the person's conversation, or opens one; the partial unique index keeps it one (a race retries once). */
  async function append(userId: number, orderId: number | null, body: string, retry = true): Promise<void> {
    try {
      await db.$transaction(async (tx) => {
        const now = new Date();
        const open = await tx.supportThread.findFirst({ where: { userId, status: { in: NOT_CLOSED } }, select: { id: true, orderId: true } });
        const data = { status: "open" satisfies SupportThreadStatus, lastMessageAt: now, readByUserAt: now, ...(orderId ? { orderId } : {}) };
        const thread = open
          ? await tx.supportThread.update({ where: { id: open.id }, data, select: { id: true } })
          : await tx.supportThread.create({ data: { userId, ...data }, select: { id: true } });
        await tx.supportMessage.create({ data: { threadId: thread.id, author: "person" satisfies SupportAuthor, body } });
      });
    } catch (err) {
      if (retry && isUniqueViolation(err)) return append(userId, orderId, body, false);
      throw err;
    }
  }

  return {
    /** GET /api/support/thread: the person's latest conversation and how many of support's replies are unseen. */
    async current(userId: number): Promise<SupportThreadAnswer> {
      const thread = await latest(userId);
      if (!thread) return { thread: null, unread: 0 };
      const order = thread.orderId ? await db.order.findUnique({ where: { id: thread.orderId }, select: { orderNo: true } }) : null;
      const seen = thread.readByUserAt?.getTime() ?? 0;
      return {
        thread: {
          id: thread.id,
          status: thread.status as SupportThreadStatus,
          order_id: thread.orderId,
          order_no: order?.orderNo ?? null,
          messages: thread.messages.map((m) => ({ id: m.id, author: m.author as SupportAuthor, body: m.body, created_at: m.createdAt.toISOString() })),
        },
        unread: thread.messages.filter((m) => m.author === "staff" && m.createdAt.getTime() > seen).length,
      };
    },

    /** POST /api/support/messages: the order, when named, must be one the person may read (the orders domain decides). */
    async write(userId: number, ability: AppAbility, input: SupportMessageBody): Promise<SupportThreadAnswer> {
      const order = input.order_id ? await deps.orderOf(input.order_id, ability) : null;
      await append(userId, order?.id ?? null, input.body);
      return this.current(userId);
    },

    /** POST /api/support/read: the person has seen support's replies. */
    async markRead(userId: number): Promise<{ unread: 0 }> {
      const thread = await db.supportThread.findFirst({ where: { userId }, orderBy: { id: "desc" }, select: { id: true } });
      if (thread) await db.supportThread.update({ where: { id: thread.id }, data: { readByUserAt: new Date() } });
      return { unread: 0 };
    },

    /** Guest merge (auth): the guest's conversations become the account's; the account's own open one stays the open one. */
    async moveToUser(tx: Tx, fromUserId: number, toUserId: number): Promise<void> {
      const kept = await tx.supportThread.count({ where: { userId: toUserId, status: { in: NOT_CLOSED } } });
      if (kept) await tx.supportThread.updateMany({ where: { userId: fromUserId, status: { in: NOT_CLOSED } }, data: { status: "closed" } });
      await tx.supportThread.updateMany({ where: { userId: fromUserId }, data: { userId: toUserId } });
    },

    /**
     * Account erasure (GDPR Art. 17, decision 262), the support domain's part, in the erasure's transaction: the
     * person's conversations go, their messages with them (the law keeps none of it; staff replies stay in the audit
     * log as every staff action does). No files.
     */
    async eraseUser(tx: Tx, userId: number): Promise<string[]> {
      await tx.supportThread.deleteMany({ where: { userId } });
      return [];
    },

    inbox: createSupportInbox(deps),
  };
}

export type SupportService = ReturnType<typeof createSupportService>;
