import type { Logger } from "pino";
import type { Config } from "../../config.ts";
import { CHARACTER_TIERS, KEPT_REPLY_STATUSES, type CharacterTier, type ChatMessageStatus, type ChatRole, type PolicyHitSource } from "../../contract/chat.ts";
import { isRefusedStatement, isUniqueViolation, queryRows, refuseStatement, sqlPool, sqlTransaction, type Db, type SqlRunner, type SqlTx, type Tx } from "../../db/client.ts";
import { Prisma, type ChatMessage, type Conversation } from "../../db/generated/client.ts";
import type { ContentState } from "../../contract/moderation.ts";
import { createListenHub } from "../../db/listen-hub.ts";
import { matching, pageOf, type ListParams } from "../../db/paging.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import type { ModeratedContent } from "../moderation/moderation.service.ts";
import type { ReportBody } from "../moderation/moderation.schema.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import type { UploadsService } from "../uploads/uploads.service.ts";
import { createChatBackends, NoReplyError, ReplyCutError, type BackendCall } from "./backends/registry.ts";
import { createCharactersService, type AvatarImages } from "./characters.service.ts";
import type { ConversationFilter, PolicyHitFilter, SuspensionFilter } from "./chat.admin.schema.ts";
import type { AuditService } from "../audit/audit.service.ts";
import type { ChatBody } from "./chat.schema.ts";
import { createChatPolicy } from "./policy.ts";
import { buildPrompt, characterCard, countTokens, summaryRequest, SUMMARY_TOKENS, type HistoryMessage } from "./prompt.ts";

/**
 * The statements on every reply's path (accept, finish, the back-end call row) are raw SQL: Prisma's per-query
 * compilation was a third of the API's CPU under 200 streams (docs/decisions/183, 223). These are chat_messages'
 * columns as the ChatMessage model names them, and "now" as Prisma stores DateTime (UTC, without time zone).
 */
const MESSAGE_COLUMNS = Prisma.sql`id, conversation_id AS "conversationId", role, content, status, reply_to_id AS "replyToId", credits, free, backend,
  client_key AS "clientKey", created_at AS "createdAt"`;
const NOW_UTC = Prisma.sql`(now() AT TIME ZONE 'UTC')`;
/** Advisory-lock classes: a conversation's acceptance of messages, and a guest's count of free ones. */
const LOCK_CONVERSATION = 16;
const LOCK_GUEST_FREE_MESSAGES = 15;
/** Takes a conversation's lock until the transaction (or the autocommit statement) ends. */
const conversationLock = (conversationId: number) => Prisma.sql`pg_advisory_xact_lock(${LOCK_CONVERSATION}, ${conversationId})`;

/** NOTIFY channel of chat replies: pieces of text as they are saved, ends, and stop requests, for every API instance. */
export const CHAT_CHANNEL = "reverie_chat";

/** A running reply's text is saved (and published to other instances) this often, not per token. */
const FLUSH_MS = 500;
/**
 * A reply nobody follows from another instance is only saved this often (what a sweep keeps if the writing process
 * dies): the per-reply statement twice a second was the largest avoidable cost under load (decision 183).
 */
const SAVE_MS = 5_000;
/** NOTIFY payloads must stay under 8000 bytes; longer pieces are split. */
const MAX_PIECE = 2000;
/**
 * A reply still 'streaming' this long after it was accepted has lost its writer (the process ended): it is ended as
 * cut (text kept, charged) or failed (refunded). Far beyond any real reply, queue wait included.
 */
const STALE_MS = 15 * 60_000;
const SWEEP_MS = 60_000;
/** How long a queued reply waits for an earlier one before looking at the database again. */
const WAIT_POLL_MS = 1000;

export type LiveEvent =
  | { k: "piece"; m: number; u: number; o: number; t: string }
  | { k: "end"; m: number; u: number; c: number; s: ChatMessageStatus }
  | { k: "stop"; m: number }
  /** Someone follows this reply from another instance: its writer publishes its pieces from now on. */
  | { k: "follow"; m: number };

/** What a person's browser receives about a reply. */
export type ReplyEvent = { type: "token"; text: string } | { type: "refused"; msg: string } | { type: "end"; reply: MessageView };

export interface MessageView {
  id: number;
  role: string;
  content: string;
  status: string;
  reply_to_id: number | null;
  credits: number;
  created_at: string;
}

export function messageView(m: ChatMessage): MessageView {
  return { id: m.id, role: m.role, content: m.content, status: m.status, reply_to_id: m.replyToId, credits: m.credits, created_at: m.createdAt.toISOString() };
}

/** A reply accepted for writing: the person's message (none for a regenerated reply), the reply row, and its run here. */
export interface StartedReply {
  userMessage: ChatMessage | null;
  reply: ChatMessage;
  /** Null when a retried send found its reply (followed from the database). */
  run: ReplyRun | null;
}

/** A reply being written in this process: its text so far and who is reading it. */
class ReplyRun {
  text = "";
  readonly abort = new AbortController();
  readonly listeners = new Set<(e: ReplyEvent) => void>();
  finished?: MessageView;
  refused = false;
  /** Followed from another instance (a `follow` event came): pieces are published, not only saved. */
  followed = false;
  /** Saves (and when followed publishes) the text now; set while the reply is being written. */
  flushNow?: () => void;
  constructor(
    readonly id: number,
    readonly userId: number,
    readonly conversationId: number,
  ) {}
  emit(e: ReplyEvent) {
    if (e.type === "end") this.finished = e.reply;
    for (const l of this.listeners) l(e);
  }
}

interface Deps {
  db: Db;
  config: Config;
  log: Logger;
  credits: CreditsService;
  /** Files a report as the system (moderation.fileReport with no reporter). */
  fileReport: (input: ReportBody) => Promise<unknown>;
  storage: MediaStorage;
  uploads: UploadsService;
  /** Lifting a suspension is a staff action, written to the audit log in its own transaction. */
  audit: AuditService;
  /** Avatars are painted through the generation domain (services.ts wires it). */
  images: AvatarImages;
  databaseUrl: string | undefined;
}

/**
 * Conversations with AI characters (docs/decisions/100-104). A reply is a row created with the person's message and
 * charged in the same transaction; the back end's text streams to the browser as it arrives, is saved every SAVE_MS
 * (published every FLUSH_MS while someone follows it from another instance) and once more when the reply ends (a conditional update on status 'streaming', so it is stored exactly once however
 * the reading browser behaves). Replies of one conversation are written one after the other, in the order the
 * messages were accepted.
 */
export function createChatService(deps: Deps) {
  const { db, config, log, credits } = deps;
  /** Every statement a reply makes runs straight through pg, not Prisma's client (docs/decisions/226). */
  const pool = sqlPool(db);
  const backends = createChatBackends(config, recordCall);
  const policy = createChatPolicy(config, log);
  const live = createListenHub<LiveEvent>(CHAT_CHANNEL, deps.databaseUrl, log);
  const runs = new Map<number, ReplyRun>();
  /** Waiters for the end of a reply (any instance's), by reply id. */
  const endWaiters = new Map<number, Set<() => void>>();
  let listening: Promise<unknown> | undefined;
  const price: Record<CharacterTier, number> = { standard: config.CHAT_PRICE_STANDARD, premium: config.CHAT_PRICE_PREMIUM };

  function listen() {
    return (listening ??= live
      .subscribe((e) => {
        if (e.k === "stop") runs.get(e.m)?.abort.abort();
        if (e.k === "follow") {
          const run = runs.get(e.m);
          if (run && !run.followed) {
            run.followed = true;
            run.flushNow?.();
          }
        }
        if (e.k === "end") for (const w of endWaiters.get(e.m) ?? []) w();
      })
      .catch((err) => {
        listening = undefined;
        throw err;
      }));
  }

  async function publish(e: LiveEvent) {
    await queryRows(pool, Prisma.sql`SELECT pg_notify(${CHAT_CHANNEL}, ${JSON.stringify(e)})::text`);
  }

  /**
   * Back-end calls are counted for the console; the calls that end in one turn of the event loop are written in one
   * statement, since replies started together end together (200 at once in the chat bench, decision 227).
   */
  let unrecorded: BackendCall[] = [];
  function recordCall(c: BackendCall) {
    if (!unrecorded.length) setImmediate(writeCalls);
    unrecorded.push(c);
  }
  function writeCalls() {
    const calls = unrecorded;
    unrecorded = [];
    const rows = calls.map(
      (c) => Prisma.sql`(${c.backend}, ${c.ok}, ${c.httpStatus ?? null}, ${c.error?.slice(0, 500) ?? null}, ${c.firstTokenMs ?? null}, ${c.totalMs}, ${c.promptTokens ?? null}, ${c.completionTokens ?? null}, ${NOW_UTC})`,
    );
    queryRows(pool, Prisma.sql`INSERT INTO chat_backend_calls (backend, ok, http_status, error, first_token_ms, total_ms, prompt_tokens, completion_tokens, created_at)
        VALUES ${Prisma.join(rows)}`).catch((err: unknown) => log.warn({ err }, "could not record chat back-end calls"));
  }

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
    return { id: userId, userId, suspended: hits.length >= config.CHAT_POLICY_STRIKES, strikes: config.CHAT_POLICY_STRIKES, hits: hits.length, lastHitAt: hits.at(-1)?.createdAt ?? null, policyHits: hits };
  }

  async function assertChatAllowed(userId: number) {
    if (await suspended(userId)) throw HttpError.forbidden(MSG.chatSuspended);
  }

  /**
   * A refused attempt, kept for moderators. The attempt that reaches CHAT_POLICY_STRIKES suspends chat for the account
   * (every later call is refused) and files an underage report about the conversation or character, which also
   * suspends that content at once.
   */
  async function recordHit(h: { userId: number; source: PolicyHitSource; rule: string; excerpt: string; conversationId?: number; characterId?: number }) {
    await db.chatPolicyHit.create({ data: { userId: h.userId, source: h.source, rule: h.rule, excerpt: h.excerpt.slice(0, 1000), conversationId: h.conversationId, characterId: h.characterId } });
    const count = await db.chatPolicyHit.count({ where: counting(h.userId) });
    if (count !== config.CHAT_POLICY_STRIKES) return;
    const target = h.conversationId
      ? { target_type: "conversation" as const, target_id: h.conversationId }
      : h.characterId
        ? { target_type: "character" as const, target_id: h.characterId }
        : await db.conversation.findFirst({ where: { userId: h.userId }, orderBy: { id: "desc" }, select: { id: true } }).then((c) => (c ? { target_type: "conversation" as const, target_id: c.id } : null));
    log.warn({ userId: h.userId, hits: count }, "chat suspended after repeated policy hits");
    if (target) await deps.fileReport({ ...target, reason: "underage", details: `Automatic: chat suspended after ${count} refused attempts (last rule: ${h.rule}).` });
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
      if (runs.has(r.id)) continue;
      if (await finish(new ReplyRun(r.id, r.conversation.userId, r.conversationId), r.content ? "cut" : "failed", r.content, null)) ended++;
    }
    return ended;
  }
  const sweeper = setInterval(() => void sweepStale().catch((err: unknown) => log.warn({ err }, "chat sweep failed")), SWEEP_MS);
  sweeper.unref();

  const characters = createCharactersService({ db, storage: deps.storage, uploads: deps.uploads, backends, policy, recordHit, assertChatAllowed, images: deps.images });

  /** The caller's conversation (not deleted); another's is 404, never 403, so ids reveal nothing. */
  async function own(userId: number, conversationId: number) {
    const c = await db.conversation.findFirst({ where: { id: conversationId, userId, deletedAt: null }, include: { character: true } });
    if (!c) throw HttpError.notFound();
    return c;
  }

  /**
   * A conversation that may get a new reply: the caller's (404 otherwise), chat not suspended (403), active with an
   * active character (404), on a tier that has a back end (503); with a send's idempotency key, the person's message
   * already stored under it (`earlier`). One raw statement: it runs for every reply, and 200 replies starting at once
   * queued behind Prisma's query compiler (decision 224).
   */
  async function writable(userId: number, conversationId: number, clientKey: string | null = null) {
    const [c] = await queryRows<{ state: string; characterState: string; tier: string; hits: number; earlier: number | null }>(pool, Prisma.sql`
      SELECT c.state::text AS state, ch.state::text AS "characterState", ch.tier,
        (SELECT count(*)::int FROM chat_policy_hits h WHERE h.user_id = ${userId} AND h.lifted_at IS NULL) AS hits,
        ${clientKey === null ? Prisma.sql`NULL::int` : Prisma.sql`(SELECT m.id FROM chat_messages m WHERE m.client_key = ${clientKey})`} AS earlier
      FROM conversations c JOIN characters ch ON ch.id = c.character_id
      WHERE c.id = ${conversationId} AND c.user_id = ${userId} AND c.deleted_at IS NULL`);
    if (!c) throw HttpError.notFound();
    if (c.hits >= config.CHAT_POLICY_STRIKES) throw HttpError.forbidden(MSG.chatSuspended);
    if (c.state !== "active" || c.characterState !== "active") throw HttpError.notFound();
    const tier = tierOf(c.tier);
    if (!backends.available(tier)) throw new HttpError(503, MSG.chatUnavailable);
    return { tier, earlier: c.earlier };
  }

  async function checkUserText(userId: number, conversationId: number, content: string) {
    const rule = await policy.checkText(content);
    if (!rule) return;
    await recordHit({ userId, source: "user_message", rule, excerpt: content, conversationId });
    throw HttpError.badRequest(MSG.chatRefused);
  }

  /** A guest's first CHAT_FREE_MESSAGES replies are free; counting them needs a transaction (see `openReply`). */
  const countsFreeMessages = (guest: boolean) => guest && config.CHAT_FREE_MESSAGES > 0;

  /**
   * The reply row and its charge in one statement; with `ask`, the person's message too. The statement first takes
   * the conversation's lock (messages of one conversation are accepted one at a time, so their ids, the turn order,
   * follow commit order) and everything it writes waits for it, so it locks in the order the redo transaction does.
   * On the pool it is the whole acceptance in one round trip (decision 227): a short balance makes it undo itself
   * (`refuse_statement`) and answers 402. A guest's free messages are counted under their own lock and in their own
   * statement (a statement's snapshot is taken before any lock it waits for): that runs in the caller's transaction.
   */
  async function openReply(
    runner: SqlRunner,
    o: { userId: number; guest: boolean; conversationId: number; tier: CharacterTier } & ({ ask: { content: string; clientKey: string | null } } | { replyToId: number }),
  ): Promise<{ userMessage: ChatMessage | null; reply: ChatMessage }> {
    let free = false;
    if (countsFreeMessages(o.guest)) {
      await queryRows(runner, Prisma.sql`SELECT 1 AS locked FROM pg_advisory_xact_lock(${LOCK_GUEST_FREE_MESSAGES}, ${o.userId})`);
      const [row] = await queryRows<{ used: number }>(runner, Prisma.sql`
        SELECT count(*)::int AS used FROM chat_messages m JOIN conversations c ON c.id = m.conversation_id WHERE m.free AND c.user_id = ${o.userId}`);
      free = row!.used < config.CHAT_FREE_MESSAGES;
    }
    const cost = free ? 0 : price[o.tier];
    const replyMade = Prisma.sql`EXISTS (SELECT 1 FROM reply)`;
    const charge = cost > 0
      ? credits.chargeInStatement({ userId: o.userId, amount: cost, reason: "chat_message", reference: Prisma.sql`'chat_message:' || (SELECT id FROM reply)`, idempotencyKey: Prisma.sql`'chat-reply:' || (SELECT id FROM reply)`, after: replyMade })
      : null;
    const columns = Prisma.sql`(conversation_id, role, content, status, reply_to_id, credits, free, client_key, created_at)`;
    let rows: (ChatMessage & { asked: boolean; charged: boolean })[];
    try {
      rows = await queryRows(runner, Prisma.sql`
        WITH locked AS (SELECT 1 AS held FROM ${conversationLock(o.conversationId)}),
        ${"ask" in o
          ? Prisma.sql`asked AS (
          INSERT INTO chat_messages ${columns}
          SELECT ${o.conversationId}, 'user', ${o.ask.content}, 'complete', NULL, 0, false, ${o.ask.clientKey}, ${NOW_UTC} FROM locked
          RETURNING ${MESSAGE_COLUMNS}),`
          : Prisma.empty}
        reply AS (
          INSERT INTO chat_messages ${columns}
          SELECT ${o.conversationId}, 'assistant', '', 'streaming', turn.id, ${cost}, ${free}, NULL, ${NOW_UTC}
          -- read from the person's new row, so that row (and its id) is made first
          FROM ${"ask" in o ? Prisma.sql`asked` : Prisma.sql`(SELECT ${o.replyToId}::int AS id FROM locked)`} turn
          RETURNING ${MESSAGE_COLUMNS}),
        touched AS (UPDATE conversations SET last_message_at = ${NOW_UTC} WHERE id = ${o.conversationId} AND ${replyMade})${charge ? Prisma.sql`,
        ${charge.ctes}` : Prisma.empty}
        SELECT reply.*, false AS asked, ${charge ? Prisma.sql`CASE WHEN ${charge.charged} THEN true ELSE ${refuseStatement("not enough credits")} END` : Prisma.sql`true`} AS charged FROM reply
        ${"ask" in o ? Prisma.sql`UNION ALL SELECT asked.*, true, true FROM asked` : Prisma.empty}`);
    } catch (err) {
      if (isRefusedStatement(err)) throw new HttpError(402, MSG.notEnoughCredits);
      throw err;
    }
    // `charged` is only there to make the statement check the charge; every row that comes back was charged
    const message = ({ asked: _a, charged: _c, ...row }: (typeof rows)[number]) => row as ChatMessage;
    const asked = rows.find((r) => r.asked);
    return { userMessage: asked ? message(asked) : null, reply: message(rows.find((r) => !r.asked)!) };
  }

  async function lockConversation(tx: Tx | SqlTx, conversationId: number) {
    await queryRows(tx, Prisma.sql`SELECT 1 AS locked FROM ${conversationLock(conversationId)}`);
  }

  /**
   * What a reply is written from, in one raw statement (it runs for every reply; as three Prisma queries it queued
   * behind the query compiler when 200 replies started at once, decision 224): the latest earlier reply of the
   * conversation still being written (`busy`), the summary, the character card, and the kept messages after the
   * summary.
   */
  async function turnContext(run: ReplyRun) {
    const [row] = await queryRows<
      { busy: number | null; summary: string; summaryUpToId: number | null; name: string; description: string; personality: string; scenario: string; exampleLines: string[]; age: number | null; messages: { id: number; role: ChatRole; content: string; replyToId: number | null }[] }
    >(pool, Prisma.sql`
      SELECT busy.id AS busy, c.summary, c.summary_up_to_id AS "summaryUpToId",
        ch.name, ch.description, ch.personality, ch.scenario, ch.example_lines AS "exampleLines", ch.age,
        (SELECT coalesce(json_agg(json_build_object('id', m.id, 'role', m.role, 'content', m.content, 'replyToId', m.reply_to_id) ORDER BY m.id), '[]'::json)
           FROM chat_messages m
          WHERE m.conversation_id = c.id AND m.status IN (${Prisma.join([...KEPT_REPLY_STATUSES])})
            AND m.id > coalesce(c.summary_up_to_id, 0) AND m.content <> '') AS messages
      FROM conversations c JOIN characters ch ON ch.id = c.character_id
      LEFT JOIN LATERAL (SELECT b.id FROM chat_messages b
          WHERE b.conversation_id = c.id AND b.role = 'assistant' AND b.status = 'streaming' AND b.id < ${run.id}
          ORDER BY b.id DESC LIMIT 1) busy ON true
      WHERE c.id = ${run.conversationId}`);
    if (!row) throw new Error(`conversation ${run.conversationId} is gone`);
    return row;
  }

  /** The messages a reply may see: the greeting and every earlier turn with the text its reply got, in turn order. */
  function history(rows: { id: number; role: ChatRole; content: string; replyToId: number | null }[], upToTurn: number): HistoryMessage[] {
    const turnOf = (m: (typeof rows)[number]) => (m.role === "user" ? m.id : (m.replyToId ?? m.id));
    return rows
      .filter((m) => turnOf(m) <= upToTurn)
      .sort((a, b) => turnOf(a) - turnOf(b) || (a.role === "user" ? -1 : 1) - (b.role === "user" ? -1 : 1))
      .map((m) => ({ id: m.id, role: m.role, content: m.content }));
  }

  /** Waits until no earlier reply of the conversation is still being written (on this or any instance); its context. */
  async function waitForTurn(run: ReplyRun) {
    for (;;) {
      const context = await turnContext(run);
      const busy = context.busy;
      if (busy === null || run.abort.signal.aborted) return context;
      await new Promise<void>((resolve) => {
        const set = endWaiters.get(busy) ?? new Set();
        endWaiters.set(busy, set);
        const done = () => {
          clearTimeout(timer);
          set.delete(done);
          if (!set.size) endWaiters.delete(busy);
          resolve();
        };
        const timer = setTimeout(done, WAIT_POLL_MS);
        set.add(done);
      });
    }
  }

  function endLocal(id: number) {
    for (const w of endWaiters.get(id) ?? []) w();
  }

  /**
   * Stores the reply's end once: the conditional update on 'streaming' wins exactly once. A reply that produced no
   * text (every back end failed, stopped before the first token, refused) gives its credits and free message back in
   * the same transaction. The same statement moves the conversation's last-message time and publishes the end (sent
   * at commit), so a reply that keeps its charge ends in one statement, without a transaction (decision 224).
   */
  async function finish(run: ReplyRun, status: ChatMessageStatus, content: string, backend: string | null): Promise<ChatMessage | null> {
    const refund = status === "failed" || status === "refused" || (status === "stopped" && content === "");
    const end = JSON.stringify({ k: "end", m: run.id, u: run.userId, c: run.conversationId, s: status } satisfies LiveEvent);
    const endRow = async (c: SqlRunner) => {
      // `charged` is what the row held before this statement (the CTE reads the statement's snapshot); only the
      // finish that finds the row still streaming updates it, touches the conversation and notifies (once per row)
      const rows = await queryRows<ChatMessage & { charged: number; notified: string }>(c, Prisma.sql`
        WITH before AS (SELECT credits FROM chat_messages WHERE id = ${run.id}),
        ended AS (
          UPDATE chat_messages SET status = ${status}, content = ${content}, backend = ${backend}${refund ? Prisma.sql`, credits = 0, free = false` : Prisma.empty}
           WHERE id = ${run.id} AND status = 'streaming'
          RETURNING ${MESSAGE_COLUMNS}),
        touched AS (UPDATE conversations SET last_message_at = ${NOW_UTC} WHERE id = ${run.conversationId} AND EXISTS (SELECT 1 FROM ended))
        SELECT ended.*, (SELECT credits FROM before) AS charged, pg_notify(${CHAT_CHANNEL}, ${end})::text AS notified FROM ended`);
      if (!rows[0]) return null;
      const { charged, notified: _, ...row } = rows[0];
      return { charged, row };
    };
    if (!refund) return (await endRow(pool))?.row ?? null;
    return db.$transaction(async (tx) => {
      const ended = await endRow(tx);
      if (!ended) return null;
      if (ended.charged > 0) await credits.refund({ userId: run.userId, amount: ended.charged, reason: "chat_refund", reference: `chat_message:${run.id}`, idempotencyKey: `chat-refund:${run.id}` }, tx);
      return ended.row;
    });
  }

  /** Writes one reply: waits its turn, builds the prompt, streams, checks, stores, then updates the summary. */
  async function write(run: ReplyRun, tier: CharacterTier, replyToId: number) {
    let saved = 0;
    let savedAt = Date.now();
    /** Text up to here has been published; 0 until the reply is followed, so a first follower gets all of it. */
    let published = 0;
    let flushing: Promise<unknown> = Promise.resolve();
    const flush = (now = false) => {
      const fresh = run.text.length !== saved || (run.followed && published < run.text.length);
      if (!fresh || run.refused) return;
      // nobody follows elsewhere: saved every SAVE_MS only, nothing published
      if (!run.followed && !now && Date.now() - savedAt < SAVE_MS) return;
      const text = run.text;
      const from = published;
      const piece = run.followed ? text.slice(from) : "";
      saved = text.length;
      savedAt = Date.now();
      if (run.followed) published = text.length;
      flushing = flushing.then(async () => {
        if (!piece) {
          await queryRows(pool, Prisma.sql`UPDATE chat_messages SET content = ${text} WHERE id = ${run.id} AND status = 'streaming'`);
          return;
        }
        // one raw statement saves the text and publishes the piece, so a follower's snapshot and pieces line up
        const first = JSON.stringify({ k: "piece", m: run.id, u: run.userId, o: from, t: piece.slice(0, MAX_PIECE) } satisfies LiveEvent);
        await queryRows(pool, Prisma.sql`WITH saved AS (UPDATE chat_messages SET content = ${text} WHERE id = ${run.id} AND status = 'streaming' RETURNING id)
          SELECT pg_notify(${CHAT_CHANNEL}, ${first})::text FROM saved`);
        for (let o = MAX_PIECE; o < piece.length; o += MAX_PIECE) await publish({ k: "piece", m: run.id, u: run.userId, o: from + o, t: piece.slice(o, o + MAX_PIECE) });
      }).catch((err: unknown) => log.warn({ err }, "chat reply flush failed"));
    };
    run.flushNow = () => flush(true);
    const ticker = setInterval(flush, FLUSH_MS);
    let status: ChatMessageStatus = "complete";
    let backend: string | null = null;
    try {
      const conversation = await waitForTurn(run);
      const card = characterCard(conversation);
      const past = history(conversation.messages, replyToId);
      let unsummarized: HistoryMessage[] = [];
      const check = policy.streamChecker();
      // a moderation hit arrives in the background: the stream is stopped and the reply refused like a rule hit
      let moderationHit: Promise<unknown> = Promise.resolve();
      const moderator = policy.streamModerator((rule) => {
        if (run.refused || run.abort.signal.aborted) return;
        run.refused = true;
        moderationHit = recordHit({ userId: run.userId, source: "reply", rule, excerpt: run.text, conversationId: run.conversationId }).catch((err: unknown) => log.warn({ err }, "could not record a chat policy hit"));
        run.abort.abort();
      });
      try {
        for await (const chunk of backends.stream(
          tier,
          (b) => {
            const prompt = buildPrompt({ card, summary: conversation.summary, summaryUpToId: conversation.summaryUpToId, history: past, contextTokens: b.contextTokens, replyTokens: b.maxReplyTokens });
            unsummarized = prompt.unsummarized;
            return { messages: prompt.messages, maxTokens: b.maxReplyTokens };
          },
          run.abort.signal,
        )) {
          backend = chunk.backend;
          if (run.refused) break;
          if (chunk.kind !== "text") continue;
          // checked before it is shown: a piece that completes a refused pattern never reaches the browser
          const broken = check(chunk.text);
          if (broken) {
            run.refused = true;
            await recordHit({ userId: run.userId, source: "reply", rule: broken, excerpt: run.text + chunk.text, conversationId: run.conversationId });
            run.abort.abort();
            break;
          }
          run.text += chunk.text;
          run.emit({ type: "token", text: chunk.text });
          moderator?.update(run.text, chunk.text);
        }
        moderator?.close();
        if (run.refused) status = "refused";
        else if (run.abort.signal.aborted) status = "stopped";
        else {
          const rule = run.text ? await policy.checkText(run.text) : null;
          if (rule) {
            run.refused = true;
            status = "refused";
            await recordHit({ userId: run.userId, source: "reply", rule, excerpt: run.text, conversationId: run.conversationId });
          }
        }
      } catch (err) {
        moderator?.close();
        if (err instanceof ReplyCutError) status = "cut";
        else if (err instanceof NoReplyError) status = "failed";
        else throw err;
        log.warn({ err: (err as Error).message, replyId: run.id }, status === "cut" ? "chat reply cut by its back end" : "no chat back end could reply");
        if (run.refused) status = "refused";
      }
      await moderationHit;
      clearInterval(ticker);
      await flushing;
      const stored = await finish(run, status, run.refused ? "" : run.text, backend);
      if (run.refused) run.emit({ type: "refused", msg: MSG.chatRefused });
      if (stored) run.emit({ type: "end", reply: messageView(stored) });
      if ((KEPT_REPLY_STATUSES as readonly string[]).includes(status)) await summarize(run.conversationId, tier, unsummarized);
    } catch (err) {
      log.error({ err, replyId: run.id }, "chat reply failed");
      clearInterval(ticker);
      const stored = await finish(run, "failed", "", backend).catch(() => null);
      if (stored) run.emit({ type: "end", reply: messageView(stored) });
    } finally {
      clearInterval(ticker);
      runs.delete(run.id);
      endLocal(run.id);
      if (!run.finished) {
        const row = await db.chatMessage.findUnique({ where: { id: run.id } });
        if (row) run.emit({ type: "end", reply: messageView(row) });
      }
    }
  }

  /**
   * Folds the messages that fell out of the prompt's window into the conversation's running summary, after the reply
   * (so it never delays a first token). Failures leave the summary as it was; the next reply tries again.
   */
  async function summarize(conversationId: number, tier: CharacterTier, older: HistoryMessage[]) {
    if (!older.length) return;
    const conversation = await db.conversation.findUniqueOrThrow({ where: { id: conversationId }, include: { character: { select: { name: true } } } });
    const backend = backends.primary(tier);
    if (!backend) return;
    const fresh = older.filter((m) => conversation.summaryUpToId === null || m.id > conversation.summaryUpToId);
    const request = summaryRequest({ name: conversation.character.name, summary: conversation.summary, older: fresh, contextTokens: backend.contextTokens });
    if (!request) return;
    try {
      const summary = (await backends.complete(tier, { messages: request.messages, maxTokens: SUMMARY_TOKENS, temperature: 0.2 })).trim();
      if (!summary) return;
      // only moves forward: a concurrent summary that got further is kept
      await db.conversation.updateMany({ where: { id: conversationId, OR: [{ summaryUpToId: null }, { summaryUpToId: { lt: request.upToId } }] }, data: { summary, summaryUpToId: request.upToId } });
    } catch (err) {
      log.warn({ err: (err as Error).message, conversationId }, "conversation summary failed; kept the previous one");
    }
  }

  /** Starts writing a reply in this process and returns it; the caller streams its events. */
  function start(reply: ChatMessage, userId: number, tier: CharacterTier): ReplyRun {
    const run = new ReplyRun(reply.id, userId, reply.conversationId);
    runs.set(run.id, run);
    void listen()
      .catch((err: unknown) => log.warn({ err }, "chat listener unavailable; stop works on this instance only"))
      .then(() => write(run, tier, reply.replyToId!));
    return run;
  }

  async function lastTurn(conversationId: number) {
    const userMessage = await db.chatMessage.findFirst({ where: { conversationId, role: "user" }, orderBy: { id: "desc" } });
    if (!userMessage) throw HttpError.badRequest(MSG.nothingToRegenerate);
    const replies = await db.chatMessage.findMany({ where: { conversationId, role: "assistant", replyToId: userMessage.id } });
    if (replies.some((r) => r.status === "streaming")) throw HttpError.conflict(MSG.replyBusy);
    return { userMessage, replies };
  }

  /** A new reply for the last turn, replacing the old one (its charge stays: it was delivered). */
  async function redo(userId: number, guest: boolean, conversationId: number, tier: CharacterTier, edit?: string): Promise<StartedReply> {
    const reply = await db.$transaction(async (tx) => {
      // one redo at a time per conversation: a double click cannot open two replies for one turn
      await lockConversation(tx, conversationId);
      const { userMessage, replies } = await lastTurn(conversationId);
      if (edit !== undefined) await tx.chatMessage.update({ where: { id: userMessage.id }, data: { content: edit } });
      await tx.chatMessage.deleteMany({ where: { id: { in: replies.map((r) => r.id) } } });
      return (await openReply(tx, { userId, guest, conversationId, replyToId: userMessage.id, tier })).reply;
    });
    return { userMessage: null, reply, run: start(reply, userId, tier) };
  }

  async function conversationView(c: Conversation & { character: Parameters<typeof characters.view>[0] }, userId: number) {
    const last = await db.chatMessage.findFirst({ where: { conversationId: c.id, content: { not: "" } }, orderBy: { id: "desc" }, select: { role: true, content: true } });
    return {
      id: c.id,
      character: await characters.view(c.character, userId),
      last_line: last ? { role: last.role, content: last.content.slice(0, 140) } : null,
      state: c.state,
      last_message_at: c.lastMessageAt.toISOString(),
      created_at: c.createdAt.toISOString(),
    };
  }

  return {
    characters,
    backends,
    runs,

    /** Moderation sees and changes characters and conversations through these (reports, takedowns). */
    moderated: {
      character: {
        find: async (c: Tx | Db, id: number) => {
          const ch = await c.character.findUnique({ where: { id }, select: { userId: true, state: true, isPublic: true } });
          return ch && { userId: ch.userId, state: ch.state, isPublic: ch.isPublic && ch.state !== "removed" };
        },
        setState: async (c: Tx, id: number, state: ContentState, from?: ContentState) => (await c.character.updateMany({ where: { id, ...(from ? { state: from } : {}) }, data: { state } })).count > 0,
        media: async (c: Tx | Db, id: number) => {
          const ch = await c.character.findUnique({ where: { id }, select: { avatarKey: true } });
          return ch?.avatarKey ? { key: ch.avatarKey, kind: "image" as const } : null;
        },
        byMediaKey: async (c: Tx | Db, key: string) => (await c.character.findFirst({ where: { avatarKey: key }, select: { id: true } }))?.id ?? null,
      },
      conversation: {
        // a conversation is never public: only its owner (or the system) may report it
        find: async (c: Tx | Db, id: number) => {
          const cv = await c.conversation.findUnique({ where: { id }, select: { userId: true, state: true } });
          return cv && { ...cv, isPublic: false };
        },
        setState: async (c: Tx, id: number, state: ContentState, from?: ContentState) => (await c.conversation.updateMany({ where: { id, ...(from ? { state: from } : {}) }, data: { state } })).count > 0,
      },
    } satisfies Record<"character" | "conversation", ModeratedContent>,

    /** Guest merge (auth): the guest's characters and conversations become the account's, in the sign-in's transaction. */
    async moveToUser(tx: Tx, fromUserId: number, toUserId: number): Promise<void> {
      const move = { where: { userId: fromUserId }, data: { userId: toUserId } };
      await tx.character.updateMany(move);
      await tx.conversation.updateMany(move);
    },

    /** What the screens show before anything else: whether chat works here, what a reply costs, free replies left. */
    async status(principal: { userId: number; guest: boolean } | null) {
      const available = Object.fromEntries(CHARACTER_TIERS.map((t) => [t, backends.available(t)])) as Record<CharacterTier, boolean>;
      const freeLeft = principal?.guest ? Math.max(0, config.CHAT_FREE_MESSAGES - (await db.chatMessage.count({ where: { free: true, conversation: { userId: principal.userId } } }))) : 0;
      return {
        available: CHARACTER_TIERS.some((t) => available[t]),
        tiers: available,
        message: CHARACTER_TIERS.some((t) => available[t]) ? "" : MSG.chatUnavailable,
        price,
        free_left: freeLeft,
        suspended: principal ? await suspended(principal.userId) : false,
      };
    },

    /** creatConversation: a new conversation with a character the caller may read; the greeting is its first line (free). */
    async createConversation(userId: number, characterId: number) {
      await assertChatAllowed(userId);
      const character = await characters.readable(userId, characterId);
      const conversation = await db.$transaction(async (tx) => {
        const c = await tx.conversation.create({ data: { userId, characterId }, include: { character: true } });
        if (character.greeting) await tx.chatMessage.create({ data: { conversationId: c.id, role: "assistant", content: character.greeting, status: "complete" } });
        await tx.character.update({ where: { id: characterId }, data: { conversationCount: { increment: 1 } } });
        return c;
      });
      return conversationView(conversation, userId);
    },

    async listConversations(userId: number, q: { page: number; limit: number }) {
      const where = { userId, deletedAt: null };
      const [total, rows] = await Promise.all([
        db.conversation.count({ where }),
        db.conversation.findMany({ where, include: { character: true }, orderBy: [{ lastMessageAt: "desc" }, { id: "desc" }], skip: (q.page - 1) * q.limit, take: q.limit }),
      ]);
      return { list: await Promise.all(rows.map((c) => conversationView(c, userId))), total, page: q.page, limit: q.limit };
    },

    /** One conversation with its messages in turn order (the person's message, then its reply). */
    async conversation(userId: number, conversationId: number) {
      const c = await own(userId, conversationId);
      const rows = await db.chatMessage.findMany({ where: { conversationId, status: { notIn: ["failed", "refused"] } }, orderBy: { id: "asc" } });
      const turnOf = (m: ChatMessage) => (m.role === "user" ? m.id : (m.replyToId ?? m.id));
      rows.sort((a, b) => turnOf(a) - turnOf(b) || (a.role === "user" ? -1 : 1) - (b.role === "user" ? -1 : 1) || a.id - b.id);
      return { conversation: await conversationView(c, userId), messages: rows.map(messageView) };
    },

    async deleteConversation(userId: number, conversationId: number) {
      await own(userId, conversationId);
      await db.conversation.update({ where: { id: conversationId }, data: { deletedAt: new Date() } });
      return { id: conversationId };
    },

    /**
     * chat: stores the person's message and the reply's row, charges the reply, and starts writing it. Refused before
     * anything is stored or charged: a conversation that is not the caller's (404), chat unavailable (503), a policy hit
     * (400), a short balance (402 'Please get points first'). A retried send with the same idempotency key returns the
     * first send's reply instead of a second one.
     */
    async send(userId: number, guest: boolean, body: ChatBody): Promise<StartedReply> {
      const clientKey = body.idempotency_key ? `${userId}:${body.idempotency_key}` : null;
      const { tier, earlier } = await writable(userId, body.conversation_id, clientKey);
      if (earlier !== null) return replay(await db.chatMessage.findUniqueOrThrow({ where: { id: earlier } }));
      await checkUserText(userId, body.conversation_id, body.content);
      let created: { userMessage: ChatMessage | null; reply: ChatMessage };
      const accept = { userId, guest, conversationId: body.conversation_id, tier, ask: { content: body.content, clientKey } };
      try {
        created = countsFreeMessages(guest)
          ? await sqlTransaction(db, async (tx) => {
              // the conversation's lock before the guest's, as every other path takes them
              await lockConversation(tx, body.conversation_id);
              return openReply(tx, accept);
            })
          : await openReply(pool, accept);
      } catch (err) {
        // the only unique key the accepting statement can meet is the send's idempotency key
        if (clientKey && isUniqueViolation(err)) {
          const first = await db.chatMessage.findUnique({ where: { clientKey } });
          if (first) return replay(first);
        }
        throw err;
      }
      return { userMessage: created.userMessage!, reply: created.reply, run: start(created.reply, userId, tier) };

      async function replay(userMessage: ChatMessage): Promise<StartedReply> {
        if (userMessage.conversationId !== body.conversation_id) throw HttpError.conflict(MSG.messageSentElsewhere);
        const reply = await db.chatMessage.findFirst({ where: { replyToId: userMessage.id }, orderBy: { id: "desc" } });
        if (!reply) throw HttpError.notFound();
        return { userMessage, reply, run: runs.get(reply.id) ?? null };
      }
    },

    /** Regenerate the last reply: a new, charged reply to the last message. */
    async regenerate(userId: number, guest: boolean, conversationId: number) {
      const { tier } = await writable(userId, conversationId);
      return redo(userId, guest, conversationId, tier);
    },

    /** Edit your last message: it is checked like a new one, then gets a new reply. */
    async editLast(userId: number, guest: boolean, conversationId: number, content: string) {
      const { tier } = await writable(userId, conversationId);
      await checkUserText(userId, conversationId, content);
      return redo(userId, guest, conversationId, tier, content);
    },

    /** Stop a reply being written, on whichever instance writes it; what was written is kept (and charged). */
    async stop(userId: number, replyId: number) {
      const reply = await db.chatMessage.findFirst({ where: { id: replyId, role: "assistant", conversation: { userId, deletedAt: null } } });
      if (!reply) throw HttpError.notFound();
      if (reply.status !== "streaming") return { id: replyId, status: reply.status };
      const local = runs.get(replyId);
      if (local) local.abort.abort();
      else await publish({ k: "stop", m: replyId });
      return { id: replyId, status: "stopped" };
    },

    /**
     * Follows a reply from any instance: the text saved so far, then the pieces published as they are saved, until
     * its end. A reply written in this process is followed token by token instead. Checks ownership first (404) and
     * returns the follower, so the caller can answer an error before it opens its stream.
     */
    async follower(userId: number, replyId: number): Promise<(send: (e: ReplyEvent) => void, signal: AbortSignal) => Promise<void>> {
      const reply = await db.chatMessage.findFirst({ where: { id: replyId, role: "assistant", conversation: { userId, deletedAt: null } }, select: { id: true } });
      if (!reply) throw HttpError.notFound();
      return (send, signal) => {
        const local = runs.get(replyId);
        return local ? followRun(local, send, signal) : followRemote(replyId, send, signal);
      };
    },

    followRun,

    /** Per back end over the last `hours`: requests, errors, tokens and latency, for the console. */
    async backendStatus(hours = 24) {
      const since = new Date(Date.now() - hours * 3600_000);
      const rows = await db.$queryRaw<{ backend: string; requests: bigint; errors: bigint; prompt_tokens: bigint | null; completion_tokens: bigint | null; p50_first_ms: number | null; p95_first_ms: number | null; avg_total_ms: number | null; last_error: string | null }[]>`
        SELECT backend, count(*) AS requests, count(*) FILTER (WHERE NOT ok) AS errors,
          sum(prompt_tokens) AS prompt_tokens, sum(completion_tokens) AS completion_tokens,
          percentile_cont(0.5) WITHIN GROUP (ORDER BY first_token_ms) AS p50_first_ms,
          percentile_cont(0.95) WITHIN GROUP (ORDER BY first_token_ms) AS p95_first_ms,
          avg(total_ms)::float AS avg_total_ms,
          (array_agg(error ORDER BY id DESC) FILTER (WHERE error IS NOT NULL))[1] AS last_error
        FROM chat_backend_calls WHERE created_at >= ${since} GROUP BY backend`;
      const seen = new Map(rows.map((r) => [r.backend, r]));
      const configured = backends.names();
      return {
        configured: configured.length > 0,
        hours,
        backends: configured.map((b) => {
          const r = seen.get(b.name);
          return {
            id: b.name,
            name: b.name,
            model: b.model,
            tiers: b.tiers,
            base_url: b.baseUrl,
            requests: Number(r?.requests ?? 0),
            errors: Number(r?.errors ?? 0),
            prompt_tokens: Number(r?.prompt_tokens ?? 0),
            completion_tokens: Number(r?.completion_tokens ?? 0),
            p50_first_token_ms: r?.p50_first_ms === null || r?.p50_first_ms === undefined ? null : Math.round(r.p50_first_ms),
            p95_first_token_ms: r?.p95_first_ms === null || r?.p95_first_ms === undefined ? null : Math.round(r.p95_first_ms),
            avg_total_ms: r?.avg_total_ms === null || r?.avg_total_ms === undefined ? null : Math.round(r.avg_total_ms),
            last_error: r?.last_error ?? null,
          };
        }),
      };
    },

    /** The console's views (moderators): conversations with their lines whatever their state, and the policy hits. */
    admin: {
      listConversations: (params: ListParams<ConversationFilter>) => pageOf(db.conversation, params, matching(params.filter, ["userId", "characterId", "state"])),
      async conversation(id: number) {
        const c = await db.conversation.findUnique({ where: { id }, include: { character: { select: { name: true } }, messages: { orderBy: { id: "asc" } } } });
        if (!c) return null;
        const { messages, character, ...rest } = c;
        return { ...rest, characterName: character.name, lines: messages.map((m) => ({ id: m.id, role: m.role, content: m.content, status: m.status, createdAt: m.createdAt })) };
      },
      listPolicyHits: (params: ListParams<PolicyHitFilter>) => pageOf(db.chatPolicyHit, params, matching(params.filter, ["userId", "conversationId", "characterId", "source"])),
      policyHit: (id: number) => db.chatPolicyHit.findUnique({ where: { id } }),

      /**
       * Accounts whose chat is suspended now (CHAT_POLICY_STRIKES unlifted hits or more), with how many hits, the last
       * one and the rules. Suspended accounts are few, so the groups are sorted and paged here.
       */
      async listSuspensions(params: ListParams<SuspensionFilter>) {
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
      },

      suspension: suspensionOf,

      /**
       * Lifts a suspension: the counting hits are marked lifted (kept for the record, no longer counted) and the
       * action is audited with the staff member's reason, in one transaction. 409 when chat is not suspended.
       */
      async liftSuspension(staffId: number, userId: number, reason: string) {
        await db.$transaction(async (tx) => {
          const hits = await tx.chatPolicyHit.findMany({ where: counting(userId), select: { id: true, rule: true } });
          if (hits.length < config.CHAT_POLICY_STRIKES) throw HttpError.conflict("Chat is not suspended on this account");
          const lifted = await tx.chatPolicyHit.updateMany({ where: { id: { in: hits.map((h) => h.id) }, liftedAt: null }, data: { liftedAt: new Date(), liftedById: staffId } });
          // a concurrent lift got there first: one of the two is the lift
          if (lifted.count !== hits.length) throw HttpError.conflict("Chat is not suspended on this account");
          await deps.audit.record(tx, { staffId, action: "lift_chat_suspension", resource: "User", resourceId: userId, before: { suspended: true, hits: hits.map((h) => h.id), rules: [...new Set(hits.map((h) => h.rule))] }, after: { suspended: false }, reason });
        });
        return suspensionOf(userId);
      },
    },

    /** Tokens a text costs (the prompt's tokenizer), exposed for tests and the bench. */
    countTokens,

    sweepStale,

    async close() {
      clearInterval(sweeper);
      for (const run of runs.values()) run.abort.abort();
      await live.close();
    },
  };

  async function followRemote(replyId: number, send: (e: ReplyEvent) => void, signal: AbortSignal): Promise<void> {
    let offset = 0;
    let resolveEnd!: () => void;
    const ended = new Promise<void>((r) => (resolveEnd = r));
    const unsubscribe = await live.subscribe((e) => {
      if (e.k === "piece" && e.m === replyId && e.o <= offset && e.o + e.t.length > offset) {
        send({ type: "token", text: e.t.slice(offset - e.o) });
        offset = e.o + e.t.length;
      }
      if (e.k === "end" && e.m === replyId) resolveEnd();
    });
    try {
      // the writer publishes pieces only for followed replies: ask it to, after listening (so nothing is missed)
      await publish({ k: "follow", m: replyId });
      const snapshot = await db.chatMessage.findUniqueOrThrow({ where: { id: replyId } });
      if (snapshot.content.length > offset) {
        send({ type: "token", text: snapshot.content.slice(offset) });
        offset = snapshot.content.length;
      }
      if (snapshot.status === "streaming") await Promise.race([ended, new Promise((r) => signal.addEventListener("abort", r, { once: true }))]);
      if (signal.aborted) return;
      const final = await db.chatMessage.findUniqueOrThrow({ where: { id: replyId } });
      // the text after the last saved piece arrives with the end
      if (final.content.length > offset) send({ type: "token", text: final.content.slice(offset) });
      if (final.status === "refused") send({ type: "refused", msg: MSG.chatRefused });
      send({ type: "end", reply: messageView(final) });
    } finally {
      unsubscribe();
    }
  }

  /** Follows a reply written in this process: the text so far at once, then every event until its end. */
  function followRun(run: ReplyRun, send: (e: ReplyEvent) => void, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      if (run.text) send({ type: "token", text: run.text });
      if (run.finished) {
        send({ type: "end", reply: run.finished });
        return resolve();
      }
      const listener = (e: ReplyEvent) => {
        send(e);
        if (e.type === "end") done();
      };
      const done = () => {
        run.listeners.delete(listener);
        resolve();
      };
      run.listeners.add(listener);
      signal.addEventListener("abort", done, { once: true });
    });
  }
}

function tierOf(t: string): CharacterTier {
  return (CHARACTER_TIERS as readonly string[]).includes(t) ? (t as CharacterTier) : "standard";
}

export type ChatService = ReturnType<typeof createChatService>;
