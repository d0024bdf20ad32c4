import type { Logger } from "pino";
import type pg from "pg";
import { KEPT_REPLY_STATUSES, type CharacterTier, type ChatMessageStatus } from "../../contract/chat.ts";
import type { Db, SqlRunner } from "../../db/client.ts";
import type { ChatMessage } from "../../db/generated/client.ts";
import { MSG } from "../../http/messages.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import type { ChatBackends } from "./backends/registry.ts";
import { BANNED_EVENT, messageView, ReplyRun, type Live } from "./chat.live.ts";
import { endReply, type ReplyEnd } from "./chat.queries.ts";
import { saveWhileWriting } from "./chat.saver.ts";
import { createReplyStreaming, type Writing } from "./chat.streaming.ts";
import type { ChatMetrics } from "../../metrics/metrics.ts";
import type { Suspensions } from "./chat.suspension.ts";
import { createTurns } from "./chat.turn.ts";
import type { ChatPolicy } from "./policy.ts";
import type { ChatOffers } from "./chat.offers.ts";

/**
 * A reply still 'streaming' this long after it was accepted has lost its writer (the process ended): it is ended as
 * cut (text kept, charged) or failed (refunded). Far beyond any real reply, queue wait included.
 */
const STALE_MS = 15 * 60_000;

/**
 * Writes replies: each waits its turn, streams from the back ends to its readers, is checked as it streams and once
 * whole, and is stored once at its end (refunded when it produced nothing).
 */
export function createReplyWriter(o: {
  db: Db;
  pool: pg.Pool;
  log: Logger;
  credits: CreditsService;
  backends: ChatBackends;
  policy: ChatPolicy;
  live: Live;
  suspensions: Suspensions;
  metrics: ChatMetrics;
  /** The character's offers of pictures (issue 50 item 3): whether a reply may make one, and keeping the one it made. */
  offers: Pick<ChatOffers, "mayOffer" | "recordOffer">;
}) {
  const { db, log, live } = o;
  const turns = createTurns(o);
  const streaming = createReplyStreaming({ ...o, mayOffer: o.offers.mayOffer });

  /**
   * Stores the reply's end once: the conditional update on 'streaming' wins exactly once. A reply that produced no
   * text (every back end failed, stopped before the first token, refused) gives its credits and free message back in
   * the same transaction. The same statement moves the conversation's last-message time and publishes the end (sent
   * at commit), so a reply that keeps its charge ends in one statement, without a transaction (decision 224).
   */
  async function finish(run: ReplyRun, status: ChatMessageStatus, content: string, backend: string | null): Promise<ChatMessage | null> {
    // a reply cut short by a ban was not delivered as sold: it is not charged (docs/decisions/247)
    const refund = status === "failed" || status === "refused" || (status === "stopped" && (content === "" || run.banned));
    const end: ReplyEnd = {
      replyId: run.id,
      conversationId: run.conversationId,
      status,
      content,
      backend,
      refund,
      end: { k: "end", m: run.id, u: run.userId, c: run.conversationId, s: status },
    };
    const endRow = async (c: SqlRunner) => {
      const row = await endReply.first(c, end);
      if (!row) return null;
      const { charged, notified: _, ...message } = row;
      return { charged, row: message };
    };
    if (!refund) return (await endRow(o.pool))?.row ?? null;
    return db.$transaction(async (tx) => {
      const ended = await endRow(tx);
      if (!ended) return null;
      if (ended.charged > 0)
        await o.credits.refund(
          { userId: run.userId, amount: ended.charged, reason: "chat_refund", reference: `chat_message:${run.id}`, idempotencyKey: `chat-refund:${run.id}` },
          tx,
        );
      return ended.row;
    });
  }

  /** Writes one reply: waits its turn, builds the prompt, streams, checks, stores, then updates the summary. */
  async function write(run: ReplyRun, tier: CharacterTier, replyToId: number) {
    const saving = saveWhileWriting(run, o);
    const w: Writing = { status: "complete", backend: null, unsummarized: [] };
    try {
      await streaming.stream(run, tier, await turns.waitForTurn(run), replyToId, w);
      // a ban is told as soon as the reply stops, not after its storing and refund (a loaded database's seconds)
      const toldBan = run.banned;
      if (toldBan) run.emit(BANNED_EVENT);
      await saving.stop();
      // an offer comes only with a reply kept whole, and is kept before the reply's end is told, so it is shown with it
      const offer = w.offer && w.status === "complete" && !run.banned ? await o.offers.recordOffer(run, w.offer) : null;
      const stored = await finish(run, w.status, run.refused ? "" : run.text, w.backend);
      // a ban heard while the reply was being stored is told with its end
      if (run.banned && !toldBan) run.emit(BANNED_EVENT);
      else if (run.refused && !run.banned) run.emit({ type: "refused", msg: MSG.chatRefused });
      if (stored) run.emit({ type: "end", reply: { ...messageView(stored), ...(offer ? { media: offer } : {}) } });
      if (!run.banned && (KEPT_REPLY_STATUSES as readonly string[]).includes(w.status)) await turns.summarize(run.conversationId, tier, w.unsummarized);
    } catch (err) {
      log.error({ err, replyId: run.id }, "chat reply failed");
      saving.halt();
      const stored = await finish(run, "failed", "", w.backend).catch(() => null);
      if (stored) run.emit({ type: "end", reply: messageView(stored) });
    } finally {
      saving.halt();
      live.runs.delete(run.id);
      live.ended(run.id);
      if (!run.finished) {
        const row = await db.chatMessage.findUnique({ where: { id: run.id } });
        if (row) run.emit({ type: "end", reply: messageView(row) });
      }
    }
  }

  /** Starts writing a reply in this process and returns it; the caller streams its events. */
  function start(reply: ChatMessage, userId: number, tier: CharacterTier): ReplyRun {
    const run = new ReplyRun(reply.id, userId, reply.conversationId);
    live.runs.set(run.id, run);
    void live
      .listen()
      .catch((err: unknown) => log.warn({ err }, "chat listener unavailable; stop works on this instance only"))
      .then(() => write(run, tier, reply.replyToId!));
    return run;
  }

  /** Ends replies whose writer is gone (see STALE_MS), exactly once each (finish's conditional update). */
  async function sweepStale(olderThanMs = STALE_MS): Promise<number> {
    const stale = await db.chatMessage.findMany({
      where: { role: "assistant", status: "streaming", createdAt: { lt: new Date(Date.now() - olderThanMs) } },
      select: { id: true, conversationId: true, content: true, conversation: { select: { userId: true } } },
      take: 100,
    });
    let ended = 0;
    for (const r of stale) {
      if (live.runs.has(r.id)) continue;
      if (await finish(new ReplyRun(r.id, r.conversation.userId, r.conversationId), r.content ? "cut" : "failed", r.content, null)) ended++;
    }
    return ended;
  }

  return { start, sweepStale };
}

export type ReplyWriter = ReturnType<typeof createReplyWriter>;
