import type { AppAbility } from "../../authz/abilities.ts";
import type { Db } from "../../db/client.ts";
import type { Language } from "../../contract/locales.ts";
import type { Mail } from "../auth/mailer.ts";
import type { AuditService } from "../audit/audit.service.ts";
import { auditedTable, byId } from "../audit/audited-table.ts";
import { matching, pageOf, type ListParams } from "../../db/paging.ts";
import type { SupportAuthor, SupportThreadStatus } from "../../contract/support.ts";
import { HttpError } from "../../http/errors.ts";
import { supportReplyMail } from "./support-mail.ts";
import type { SupportThreadFilter, SupportThreadRecord, SupportThreadUpdateBody } from "./support.schema.ts";

export interface SupportDeps {
  db: Db;
  audit: AuditService;
  /** The orders domain's answer to "may this person read this order" (404 otherwise). */
  orderOf: (orderId: number, ability: AppAbility) => Promise<{ id: number; orderNo: string }>;
  /** Where a person's email goes, when they have one on file. */
  contactOf: (userId: number) => Promise<{ email: string; language: Language } | null>;
  sendMail: (mail: Mail) => Promise<void>;
}

/** Said when staff reopen a conversation while the person already has another one open. */
export const ANOTHER_OPEN = "This person already has an open conversation";

const RESOURCE = "SupportThread";
const withMessages = { messages: { orderBy: { id: "asc" } } } as const;
/** The queue shows each thread's last message only: a long conversation is not read to list it. */
const withLastMessage = { messages: { orderBy: { id: "desc" }, take: 1 } } as const;

type ThreadRow = {
  id: number;
  userId: number;
  orderId: number | null;
  status: string;
  assigneeId: number | null;
  lastMessageAt: Date;
  readByUserAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  messages: { id: number; author: string; staffId: number | null; body: string; createdAt: Date }[];
};

/** A thread as the console shows it: the queue's columns computed from its messages. */
function asRecord(t: ThreadRow): SupportThreadRecord {
  const last = t.messages.at(-1);
  return {
    ...t,
    status: t.status as SupportThreadStatus,
    ageSeconds: Math.max(0, Math.floor((Date.now() - t.lastMessageAt.getTime()) / 1000)),
    preview: last?.body.slice(0, 200) ?? "",
    lastAuthor: (last?.author ?? "person") as SupportAuthor,
    messages: t.messages.map((m) => ({ ...m, author: m.author as SupportAuthor })),
  };
}

/** A thread as the queue lists it: the record without its conversation. */
function asRow(t: ThreadRow) {
  const { messages: _conversation, ...row } = asRecord(t);
  return row;
}

/** Staff's side of the support inbox: the queue, taking and closing a thread, and answering (emailed when an address is on file). */
export function createSupportInbox({ db, audit, contactOf, sendMail }: SupportDeps) {
  const threads = auditedTable(db, audit, { resource: RESOURCE, table: (c) => c.supportThread, key: byId, idOf: (r) => r.id });
  const get = async (id: number) => {
    const row = await db.supportThread.findUnique({ where: { id }, include: withMessages });
    return row && asRecord(row);
  };

  return {
    async list(params: ListParams<SupportThreadFilter>) {
      const where = matching(params.filter, ["status", "assigneeId", "userId", "orderId"]);
      const page = await pageOf(db.supportThread, params, where, { include: withLastMessage });
      return { ...page, rows: (page.rows as ThreadRow[]).map(asRow) };
    },
    get,

    /**
     * Takes (or hands on) a thread and sets where it stands, audited. The plain audited update answers a missing
     * assignee as bad input; the one conflict it can meet is the one-open-thread-per-person index.
     */
    async update(staffId: number, id: number, body: SupportThreadUpdateBody) {
      try {
        await threads.update(staffId, id, body);
      } catch (err) {
        if (err instanceof HttpError && err.status === 409) throw HttpError.conflict(ANOTHER_OPEN);
        throw err;
      }
      return get(id);
    },

    /** Support's answer: the thread waits for the person and is the replier's unless someone has it; emailed after the commit. */
    async reply(staffId: number, id: number, body: string) {
      const thread = await db.$transaction(async (tx) => {
        const found = await tx.supportThread.findUnique({ where: { id }, select: { userId: true, status: true, assigneeId: true } });
        if (!found) return null;
        if (found.status === "closed") throw HttpError.conflict("This conversation is closed");
        const message = await tx.supportMessage.create({ data: { threadId: id, author: "staff" satisfies SupportAuthor, staffId, body } });
        await tx.supportThread.update({
          where: { id },
          data: { status: "answered" satisfies SupportThreadStatus, lastMessageAt: message.createdAt, assigneeId: found.assigneeId ?? staffId },
        });
        await audit.record(tx, { staffId, action: "reply", resource: RESOURCE, resourceId: id, before: null, after: { messageId: message.id, body } });
        return found;
      });
      if (!thread) return null;
      const to = await contactOf(thread.userId);
      if (to) await sendMail({ to: to.email, ...supportReplyMail(body, to.language) });
      return get(id);
    },
  };
}
