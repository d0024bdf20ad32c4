import { KEPT_REPLY_STATUSES, type ChatMessageStatus, type ChatRole } from "../../contract/chat.ts";
import { refuseStatement } from "../../db/client.ts";
import { Prisma } from "../../db/generated/client.ts";
import { col, statement, type Column } from "../../db/statement.ts";
import { exampleAccount, moveCall } from "../credits/credits.queries.ts";
import type { BackendCall } from "./backends/registry.ts";

/**
 * The statements on every reply's path (accept, finish, the back-end call row) are raw SQL: Prisma's per-query
 * compilation was a third of the API's CPU under 200 streams (docs/decisions/183, 223). These are chat_messages'
 * columns as the ChatMessage model names them, and "now" as Prisma stores DateTime (UTC, without time zone).
 */
const MESSAGE_COLUMNS = Prisma.sql`id, conversation_id AS "conversationId", role, content, status, reply_to_id AS "replyToId", credits, free, backend,
  client_key AS "clientKey", created_at AS "createdAt"`;
/** MESSAGE_COLUMNS as they read: the ChatMessage model's fields (role and status are plain text there too). */
const messageColumns = {
  id: col.int,
  conversationId: col.int,
  role: col.text,
  content: col.text,
  status: col.text,
  replyToId: col.int.orNull,
  credits: col.int,
  free: col.bool,
  backend: col.text.orNull,
  clientKey: col.text.orNull,
  createdAt: col.time,
};
const NOW_UTC = Prisma.sql`(now() AT TIME ZONE 'UTC')`;

/** Advisory-lock classes: a conversation's acceptance of messages, and a guest's count of free ones. */
const LOCK_CONVERSATION = 16;
const LOCK_GUEST_FREE_MESSAGES = 15;
/** Takes a conversation's lock until the transaction (or the autocommit statement) ends. */
const conversationLock = (conversationId: number) => Prisma.sql`pg_advisory_xact_lock(${LOCK_CONVERSATION}, ${conversationId})`;

/** NOTIFY channel of chat replies: pieces of text as they are saved, ends, and stop requests, for every API instance. */
export const CHAT_CHANNEL = "reverie_chat";

/** Publishes an event to every instance (sent at commit, or at once outside a transaction). */
/** What instances tell each other about a reply on CHAT_CHANNEL (chat.live.ts). */
export type LiveEvent =
  | { k: "piece"; m: number; u: number; o: number; t: string }
  | { k: "end"; m: number; u: number; c: number; s: ChatMessageStatus }
  | { k: "stop"; m: number }
  /** Someone follows this reply from another instance: its writer publishes its pieces from now on. */
  | { k: "follow"; m: number };

export const publishEvent = statement({
  columns: { pg_notify: col.text },
  sql: (p: { event: LiveEvent }) => Prisma.sql`SELECT pg_notify(${CHAT_CHANNEL}, ${JSON.stringify(p.event)})::text`,
  example: { event: { k: "stop", m: 1 } },
});

const exampleCalls: BackendCall[] = [
  { backend: "example", ok: true, totalMs: 10 },
  { backend: "example", ok: false, httpStatus: 503, error: "HTTP 503", totalMs: 5, completionTokens: 0 },
];

/** Back-end calls, several in one statement (docs/decisions/227). */
export const recordBackendCalls = statement({
  columns: {},
  sql: (p: { calls: BackendCall[] }) => {
    const rows = p.calls.map(
      (c) =>
        Prisma.sql`(${c.backend}, ${c.ok}, ${c.httpStatus ?? null}, ${c.error?.slice(0, 500) ?? null}, ${c.firstTokenMs ?? null}, ${c.totalMs}, ${c.promptTokens ?? null}, ${c.completionTokens ?? null}, ${NOW_UTC})`,
    );
    return Prisma.sql`INSERT INTO chat_backend_calls (backend, ok, http_status, error, first_token_ms, total_ms, prompt_tokens, completion_tokens, created_at)
        VALUES ${Prisma.join(rows)}`;
  },
  example: { calls: exampleCalls },
});

/** Per back end since a time: requests, errors, tokens and latency. */
export const backendStats = statement({
  columns: {
    backend: col.text,
    requests: col.int,
    errors: col.int,
    prompt_tokens: col.int.orNull,
    completion_tokens: col.int.orNull,
    p50_first_ms: col.float.orNull,
    p95_first_ms: col.float.orNull,
    avg_total_ms: col.float.orNull,
    last_error: col.text.orNull,
  },
  sql: (p: { since: Date }) => Prisma.sql`
    SELECT backend, count(*)::int AS requests, (count(*) FILTER (WHERE NOT ok))::int AS errors,
      sum(prompt_tokens)::int AS prompt_tokens, sum(completion_tokens)::int AS completion_tokens,
      percentile_cont(0.5) WITHIN GROUP (ORDER BY first_token_ms) AS p50_first_ms,
      percentile_cont(0.95) WITHIN GROUP (ORDER BY first_token_ms) AS p95_first_ms,
      avg(total_ms)::float AS avg_total_ms,
      (array_agg(error ORDER BY id DESC) FILTER (WHERE error IS NOT NULL))[1] AS last_error
    FROM chat_backend_calls WHERE created_at >= ${p.since} GROUP BY backend`,
  example: { since: new Date(0) },
});

/**
 * What decides whether a conversation may get a new reply: its state and its character's, the tier, the caller's
 * unlifted policy hits, and with a send's idempotency key the person's message already stored under it (`earlier`).
 */
export const writableConversation = statement({
  columns: { state: col.text, characterState: col.text, tier: col.text, hits: col.int, earlier: col.int.orNull },
  sql: (p: { userId: number; conversationId: number; clientKey: string | null }) => Prisma.sql`
    SELECT c.state::text AS state, ch.state::text AS "characterState", ch.tier,
      (SELECT count(*)::int FROM chat_policy_hits h WHERE h.user_id = ${p.userId} AND h.lifted_at IS NULL) AS hits,
      ${p.clientKey === null ? Prisma.sql`NULL::int` : Prisma.sql`(SELECT m.id FROM chat_messages m WHERE m.client_key = ${p.clientKey})`} AS earlier
    FROM conversations c JOIN characters ch ON ch.id = c.character_id
    WHERE c.id = ${p.conversationId} AND c.user_id = ${p.userId} AND c.deleted_at IS NULL`,
  example: { userId: 1, conversationId: 1, clientKey: "1:key" as string | null },
});

/** Takes a conversation's lock until the transaction ends. */
export const lockConversation = statement({
  columns: { locked: col.int },
  sql: (p: { conversationId: number }) => Prisma.sql`SELECT 1 AS locked FROM ${conversationLock(p.conversationId)}`,
  example: { conversationId: 1 },
});

/** Takes a guest's free-message lock until the transaction ends. */
export const lockGuestFreeMessages = statement({
  columns: { locked: col.int },
  sql: (p: { userId: number }) => Prisma.sql`SELECT 1 AS locked FROM pg_advisory_xact_lock(${LOCK_GUEST_FREE_MESSAGES}, ${p.userId})`,
  example: { userId: 1 },
});

/** Locks an account's quota of characters or conversations until the transaction ends: count and insert are one step (decision 251). */
export const lockChatQuota = statement({
  columns: { locked: col.int },
  sql: (p: { kind: "characters" | "conversations"; userId: number }) =>
    Prisma.sql`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended(${`chat-quota:${p.kind}:${p.userId}`}, 0))`,
  example: { kind: "characters", userId: 1 },
});

/** How many free messages the account's conversations have had. */
export const freeMessagesUsed = statement({
  columns: { used: col.int },
  sql: (p: { userId: number }) => Prisma.sql`
    SELECT count(*)::int AS used FROM chat_messages m JOIN conversations c ON c.id = m.conversation_id WHERE m.free AND c.user_id = ${p.userId}`,
  example: { userId: 1 },
});

/** The ledger reference and idempotency key of a reply's charge: SQL over `reply`, the row `acceptReply` inserts. */
export const replyCharge = { reference: Prisma.sql`'chat_message:' || reply.id`, idempotencyKey: Prisma.sql`'chat-reply:' || reply.id` };

export interface Acceptance {
  conversationId: number;
  /** The person's message to store with the reply, or the earlier message a regenerated reply answers. */
  turn: { ask: { content: string; clientKey: string | null } } | { replyToId: number };
  cost: number;
  free: boolean;
  /** Credits' charge of the reply (`chargeInStatement`, keyed by `replyCharge`); null when the reply is free. */
  charge: Prisma.Sql | null;
}

const MESSAGE_INSERT = Prisma.sql`INSERT INTO chat_messages (conversation_id, role, content, status, reply_to_id, credits, free, client_key, created_at)`;

/**
 * The reply row and its charge in one statement; with `ask`, the person's message too. It first takes the
 * conversation's lock and everything it writes waits for it: the messages read from it, the conversation's update
 * waits for the reply, and the charge is joined to the reply, so the balance row is locked after the conversation (the
 * order the redo transaction takes them, decision 227). A charge that could not be made makes the statement undo
 * itself (`refuse_statement`). `asked` marks the person's row; `charged` is only there to make the statement check the
 * charge.
 */
export const acceptReply = statement({
  columns: { ...messageColumns, asked: col.bool, charged: col.bool },
  sql: (p: Acceptance) => {
    const ask = "ask" in p.turn ? p.turn.ask : null;
    return Prisma.sql`
      WITH locked AS (SELECT 1 AS held FROM ${conversationLock(p.conversationId)}),
      ${
        ask
          ? Prisma.sql`asked AS (
        ${MESSAGE_INSERT}
        SELECT ${p.conversationId}, 'user', ${ask.content}, 'complete', NULL, 0, false, ${ask.clientKey}, ${NOW_UTC} FROM locked
        RETURNING ${MESSAGE_COLUMNS}),`
          : Prisma.empty
      }
      reply AS (
        ${MESSAGE_INSERT}
        SELECT ${p.conversationId}, 'assistant', '', 'streaming', turn.id, ${p.cost}, ${p.free}, NULL, ${NOW_UTC}
        -- read from the person's new row, so that row (and its id) is made first
        FROM ${ask ? Prisma.sql`asked` : Prisma.sql`(SELECT ${"replyToId" in p.turn ? p.turn.replyToId : null}::int AS id FROM locked)`} turn
        RETURNING ${MESSAGE_COLUMNS}),
      touched AS (UPDATE conversations SET last_message_at = ${NOW_UTC} WHERE id = ${p.conversationId} AND EXISTS (SELECT 1 FROM reply))${
        p.charge
          ? Prisma.sql`,
      charge AS (SELECT m.balance FROM reply, LATERAL ${p.charge} m)`
          : Prisma.empty
      }
      SELECT reply.*, false AS asked, ${p.charge ? Prisma.sql`CASE WHEN (SELECT balance FROM charge) IS NOT NULL THEN true ELSE ${refuseStatement("not enough credits")} END` : Prisma.sql`true`} AS charged FROM reply
      ${ask ? Prisma.sql`UNION ALL SELECT asked.*, true, true FROM asked` : Prisma.empty}`;
  },
  example: async (run): Promise<Acceptance> => {
    const userId = await exampleAccount(run, 10);
    const charge = moveCall({ userId, delta: -3, countsTowardTotal: false, reason: "chat_message", ...replyCharge });
    return { conversationId: 1, turn: { ask: { content: "Hello", clientKey: "1:key" } }, cost: 3, free: false, charge };
  },
});

/** A reply's text so far, while it is still being written. */
export const saveReplyText = statement({
  columns: {},
  sql: (p: { replyId: number; text: string }) => Prisma.sql`UPDATE chat_messages SET content = ${p.text} WHERE id = ${p.replyId} AND status = 'streaming'`,
  example: { replyId: 1, text: "Hello" },
});

/** Saves a reply's text and publishes a piece of it in one statement, so a follower's snapshot and pieces line up. */
export const saveAndPublishReplyText = statement({
  columns: { pg_notify: col.text },
  sql: (p: {
    replyId: number;
    text: string;
    piece: LiveEvent;
  }) => Prisma.sql`WITH saved AS (UPDATE chat_messages SET content = ${p.text} WHERE id = ${p.replyId} AND status = 'streaming' RETURNING id)
          SELECT pg_notify(${CHAT_CHANNEL}, ${JSON.stringify(p.piece)})::text FROM saved`,
  example: { replyId: 1, text: "Hello", piece: { k: "piece", m: 1, u: 1, o: 0, t: "Hello" } },
});

/** A message of a conversation as a reply's context reads it. */
export interface ContextMessage {
  id: number;
  role: ChatRole;
  content: string;
  replyToId: number | null;
}
/** The messages `json_agg` builds in `turnContext`: the shape is the SQL's own. */
const contextMessages = col.json as Column<ContextMessage[]>;

/**
 * What a reply is written from: the latest earlier reply of the conversation still being written (`busy`), the
 * summary, the character card, and the kept messages after the summary.
 */
export const turnContext = statement({
  columns: {
    busy: col.int.orNull,
    summary: col.text,
    summaryUpToId: col.int.orNull,
    name: col.text,
    description: col.text,
    personality: col.text,
    scenario: col.text,
    exampleLines: col.texts,
    age: col.int.orNull,
    messages: contextMessages,
  },
  sql: (p: { replyId: number; conversationId: number }) => Prisma.sql`
    SELECT busy.id AS busy, c.summary, c.summary_up_to_id AS "summaryUpToId",
      ch.name, ch.description, ch.personality, ch.scenario, ch.example_lines AS "exampleLines", ch.age,
      (SELECT coalesce(json_agg(json_build_object('id', m.id, 'role', m.role, 'content', m.content, 'replyToId', m.reply_to_id) ORDER BY m.id), '[]'::json)
         FROM chat_messages m
        WHERE m.conversation_id = c.id AND m.status IN (${Prisma.join([...KEPT_REPLY_STATUSES])})
          AND m.id > coalesce(c.summary_up_to_id, 0) AND m.content <> '') AS messages
    FROM conversations c JOIN characters ch ON ch.id = c.character_id
    LEFT JOIN LATERAL (SELECT b.id FROM chat_messages b
        WHERE b.conversation_id = c.id AND b.role = 'assistant' AND b.status = 'streaming' AND b.id < ${p.replyId}
        ORDER BY b.id DESC LIMIT 1) busy ON true
    WHERE c.id = ${p.conversationId}`,
  example: { replyId: 2, conversationId: 1 },
});

export interface ReplyEnd {
  replyId: number;
  conversationId: number;
  status: ChatMessageStatus;
  content: string;
  backend: string | null;
  /** The reply's credits and free message are given back (the caller refunds `charged`). */
  refund: boolean;
  /** Published at commit, with the row's end. */
  end: LiveEvent;
}

/**
 * A reply's end, stored once: only the statement that finds the row still streaming updates it, touches the
 * conversation and notifies (once per row). `charged` is what the row held before this statement (the CTE reads the
 * statement's snapshot).
 */
export const endReply = statement({
  columns: { ...messageColumns, charged: col.int, notified: col.text },
  sql: (p: ReplyEnd) => Prisma.sql`
    WITH before AS (SELECT credits FROM chat_messages WHERE id = ${p.replyId}),
    ended AS (
      UPDATE chat_messages SET status = ${p.status}, content = ${p.content}, backend = ${p.backend}${p.refund ? Prisma.sql`, credits = 0, free = false` : Prisma.empty}
       WHERE id = ${p.replyId} AND status = 'streaming'
      RETURNING ${MESSAGE_COLUMNS}),
    touched AS (UPDATE conversations SET last_message_at = ${NOW_UTC} WHERE id = ${p.conversationId} AND EXISTS (SELECT 1 FROM ended))
    SELECT ended.*, (SELECT credits FROM before) AS charged, pg_notify(${CHAT_CHANNEL}, ${JSON.stringify(p.end)})::text AS notified FROM ended`,
  example: {
    replyId: 1,
    conversationId: 1,
    status: "complete",
    content: "Hello",
    backend: "example" as string | null,
    refund: true,
    end: { k: "end", m: 1, u: 1, c: 1, s: "complete" },
  },
});
