import type { Logger } from "pino";
import type pg from "pg";
import type { CharacterTier } from "../../contract/chat.ts";
import type { Db } from "../../db/client.ts";
import type { ChatBackends } from "./backends/registry.ts";
import type { Live, ReplyRun } from "./chat.live.ts";
import { turnContext, type ContextMessage } from "./chat.queries.ts";
import { summaryRequest, SUMMARY_TOKENS, type HistoryMessage } from "./prompt.ts";

/** The messages a reply may see: the greeting and every earlier turn with the text its reply got, in turn order. */
export function history(rows: ContextMessage[], upToTurn: number): HistoryMessage[] {
  const turnOf = (m: ContextMessage) => (m.role === "user" ? m.id : (m.replyToId ?? m.id));
  return rows
    .filter((m) => turnOf(m) <= upToTurn)
    .sort((a, b) => turnOf(a) - turnOf(b) || (a.role === "user" ? -1 : 1) - (b.role === "user" ? -1 : 1))
    .map((m) => ({ id: m.id, role: m.role, content: m.content }));
}

/** A reply's turn in its conversation: waiting for the replies before it, and the summary after it. */
export function createTurns(o: { db: Db; pool: pg.Pool; log: Logger; backends: ChatBackends; live: Live }) {
  /**
   * What a reply is written from, in one raw statement (it runs for every reply; as three Prisma queries it queued
   * behind the query compiler when 200 replies started at once, decision 224).
   */
  async function context(run: ReplyRun) {
    const row = await turnContext.first(o.pool, { replyId: run.id, conversationId: run.conversationId });
    if (!row) throw new Error(`conversation ${run.conversationId} is gone`);
    return row;
  }

  /** Waits until no earlier reply of the conversation is still being written (on this or any instance); its context. */
  async function waitForTurn(run: ReplyRun) {
    for (;;) {
      const found = await context(run);
      if (found.busy === null || run.abort.signal.aborted) return found;
      await o.live.endOrPoll(found.busy);
    }
  }

  /**
   * Folds the messages that fell out of the prompt's window into the conversation's running summary, after the reply
   * (so it never delays a first token). Failures leave the summary as it was; the next reply tries again.
   */
  async function summarize(conversationId: number, tier: CharacterTier, older: HistoryMessage[]) {
    if (!older.length) return;
    const conversation = await o.db.conversation.findUniqueOrThrow({ where: { id: conversationId }, include: { character: { select: { name: true } } } });
    const backend = o.backends.primary(tier);
    if (!backend) return;
    const fresh = older.filter((m) => conversation.summaryUpToId === null || m.id > conversation.summaryUpToId);
    const request = summaryRequest({ name: conversation.character.name, summary: conversation.summary, older: fresh, contextTokens: backend.contextTokens });
    if (!request) return;
    try {
      const summary = (await o.backends.complete(tier, { messages: request.messages, maxTokens: SUMMARY_TOKENS, temperature: 0.2 })).trim();
      if (!summary) return;
      // only moves forward: a concurrent summary that got further is kept
      await o.db.conversation.updateMany({
        where: { id: conversationId, OR: [{ summaryUpToId: null }, { summaryUpToId: { lt: request.upToId } }] },
        data: { summary, summaryUpToId: request.upToId },
      });
    } catch (err) {
      o.log.warn({ err: (err as Error).message, conversationId }, "conversation summary failed; kept the previous one");
    }
  }

  return { waitForTurn, summarize };
}

export type Turns = ReturnType<typeof createTurns>;
export type TurnContext = Awaited<ReturnType<Turns["waitForTurn"]>>;
