import type pg from "pg";
import type { CharacterTier } from "../../contract/chat.ts";
import { isUniqueViolation, sqlTransaction, type Db, type Tx } from "../../db/client.ts";
import type { ChatMessage } from "../../db/generated/client.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import type { Acceptor, ReplyToOpen } from "./chat.accept.ts";
import { followRun, type Live, type ReplyEvent, type StartedReply } from "./chat.live.ts";
import type { ChatBody } from "./chat.schema.ts";
import type { Suspensions } from "./chat.suspension.ts";
import type { ReplyWriter } from "./chat.writer.ts";

/** Sending a message, regenerating or editing the last turn, stopping a reply, and following one. */
export function createSending(o: { db: Db; pool: pg.Pool; live: Live; accept: Acceptor; suspensions: Suspensions; writer: Pick<ReplyWriter, "start"> }) {
  const { db, accept, live } = o;

  /** The reply a send stored before, found again by its idempotency key (the person's message, `userMessage`). */
  async function replay(conversationId: number, userMessage: ChatMessage): Promise<StartedReply> {
    if (userMessage.conversationId !== conversationId) throw HttpError.conflict(MSG.messageSentElsewhere);
    const reply = await db.chatMessage.findFirst({ where: { replyToId: userMessage.id }, orderBy: { id: "desc" } });
    if (!reply) throw HttpError.notFound();
    return { userMessage, reply, run: live.runs.get(reply.id) ?? null };
  }

  /** The person's message and its reply accepted: in a transaction when a guest's free messages are counted. */
  function openSent(r: ReplyToOpen) {
    if (!accept.countsFreeMessages(r.guest)) return accept.openReply(o.pool, r);
    return sqlTransaction(db, async (tx) => {
      // the conversation's lock before the guest's, as every other path takes them
      await accept.lockConversation(tx, r.conversationId);
      return accept.openReply(tx, r);
    });
  }

  /**
   * chat: stores the person's message and the reply's row, charges the reply, and starts writing it. Refused before
   * anything is stored or charged: a conversation that is not the caller's (404), chat unavailable (503), a policy hit
   * (400), a short balance (402 'Please get points first'). A retried send with the same idempotency key returns the
   * first send's reply instead of a second one.
   */
  async function send(userId: number, guest: boolean, body: ChatBody): Promise<StartedReply> {
    const clientKey = body.idempotency_key ? `${userId}:${body.idempotency_key}` : null;
    const { tier, earlier } = await accept.writable(userId, body.conversation_id, clientKey);
    if (earlier !== null) return replay(body.conversation_id, await db.chatMessage.findUniqueOrThrow({ where: { id: earlier } }));
    await o.suspensions.checkUserText(userId, body.conversation_id, body.content);
    let created: { userMessage: ChatMessage | null; reply: ChatMessage };
    try {
      created = await openSent({ userId, guest, conversationId: body.conversation_id, tier, turn: { ask: { content: body.content, clientKey } } });
    } catch (err) {
      // the only unique key the accepting statement can meet is the send's idempotency key
      if (clientKey && isUniqueViolation(err)) {
        const first = await db.chatMessage.findUnique({ where: { clientKey } });
        if (first) return replay(body.conversation_id, first);
      }
      throw err;
    }
    return { userMessage: created.userMessage!, reply: created.reply, run: o.writer.start(created.reply, userId, tier) };
  }

  /** The last turn, read in the redo's transaction after its lock (never on another connection of the pool). */
  async function lastTurn(tx: Tx, conversationId: number) {
    const userMessage = await tx.chatMessage.findFirst({ where: { conversationId, role: "user" }, orderBy: { id: "desc" } });
    if (!userMessage) throw HttpError.badRequest(MSG.nothingToRegenerate);
    const replies = await tx.chatMessage.findMany({ where: { conversationId, role: "assistant", replyToId: userMessage.id } });
    if (replies.some((r) => r.status === "streaming")) throw HttpError.conflict(MSG.replyBusy);
    return { userMessage, replies };
  }

  /** A new reply for the last turn, replacing the old one (its charge stays: it was delivered). */
  async function redo(userId: number, guest: boolean, conversationId: number, tier: CharacterTier, edit?: string): Promise<StartedReply> {
    const reply = await db.$transaction(async (tx) => {
      // one redo at a time per conversation: a double click cannot open two replies for one turn
      await accept.lockConversation(tx, conversationId);
      const { userMessage, replies } = await lastTurn(tx, conversationId);
      if (edit !== undefined) await tx.chatMessage.update({ where: { id: userMessage.id }, data: { content: edit } });
      await tx.chatMessage.deleteMany({ where: { id: { in: replies.map((r) => r.id) } } });
      return (await accept.openReply(tx, { userId, guest, conversationId, tier, turn: { replyToId: userMessage.id } })).reply;
    });
    return { userMessage: null, reply, run: o.writer.start(reply, userId, tier) };
  }

  return {
    send,

    /** Regenerate the last reply: a new, charged reply to the last message. */
    async regenerate(userId: number, guest: boolean, conversationId: number) {
      const { tier } = await accept.writable(userId, conversationId);
      return redo(userId, guest, conversationId, tier);
    },

    /** Edit your last message: it is checked like a new one, then gets a new reply. */
    async editLast(userId: number, guest: boolean, conversationId: number, content: string) {
      const { tier } = await accept.writable(userId, conversationId);
      await o.suspensions.checkUserText(userId, conversationId, content);
      return redo(userId, guest, conversationId, tier, content);
    },

    /** Stop a reply being written, on whichever instance writes it; what was written is kept (and charged). */
    async stop(userId: number, replyId: number) {
      const reply = await db.chatMessage.findFirst({ where: { id: replyId, role: "assistant", conversation: { userId, deletedAt: null } } });
      if (!reply) throw HttpError.notFound();
      if (reply.status !== "streaming") return { id: replyId, status: reply.status };
      const local = live.runs.get(replyId);
      if (local) local.abort.abort();
      else await live.publish({ k: "stop", m: replyId });
      return { id: replyId, status: "stopped" };
    },

    /**
     * Follows a reply from any instance: the text saved so far, then the pieces published as they are saved, until
     * its end. A reply written in this process is followed token by token instead. Checks ownership first (404) and
     * returns the follower, so the caller can answer an error before it opens its stream.
     */
    async follower(userId: number, replyId: number): Promise<(send: (e: ReplyEvent) => void, signal: AbortSignal) => Promise<void>> {
      const reply = await db.chatMessage.findFirst({
        where: { id: replyId, role: "assistant", conversation: { userId, deletedAt: null } },
        select: { id: true },
      });
      if (!reply) throw HttpError.notFound();
      return (send, signal) => {
        const local = live.runs.get(replyId);
        return local ? followRun(local, send, signal) : live.followRemote(userId, replyId, send, signal);
      };
    },
  };
}
