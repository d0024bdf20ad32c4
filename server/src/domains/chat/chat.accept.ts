import type pg from "pg";
import type { Config } from "../../config.ts";
import { CHARACTER_TIERS, type CharacterTier } from "../../contract/chat.ts";
import { isRefusedStatement, type SqlRunner, type SqlTx, type Tx } from "../../db/client.ts";
import type { ChatMessage } from "../../db/generated/client.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import type { ChatBackends } from "./backends/registry.ts";
import { acceptReply, freeMessagesUsed, lockConversation, lockGuestFreeMessages, replyCharge, writableConversation, type Acceptance } from "./chat.queries.ts";

function tierOf(t: string): CharacterTier {
  return (CHARACTER_TIERS as readonly string[]).includes(t) ? (t as CharacterTier) : "standard";
}

/** A reply to open: whose, in which conversation and tier, and the turn it answers (see `Acceptance`). */
export interface ReplyToOpen {
  userId: number;
  guest: boolean;
  conversationId: number;
  tier: CharacterTier;
  turn: Acceptance["turn"];
}

/** Accepting a reply: whether a conversation may get one, and the statement that stores and charges it. */
export function createAcceptance(o: { pool: pg.Pool; config: Config; credits: CreditsService; backends: ChatBackends }) {
  const { config } = o;
  const price: Record<CharacterTier, number> = { standard: config.CHAT_PRICE_STANDARD, premium: config.CHAT_PRICE_PREMIUM };

  /**
   * A conversation that may get a new reply: the caller's (404 otherwise), chat not suspended (403), active with an
   * active character (404), on a tier that has a back end (503); with a send's idempotency key, the person's message
   * already stored under it (`earlier`). One raw statement: it runs for every reply, and 200 replies starting at once
   * queued behind Prisma's query compiler (decision 224).
   */
  async function writable(userId: number, conversationId: number, clientKey: string | null = null) {
    const c = await writableConversation.first(o.pool, { userId, conversationId, clientKey });
    if (!c) throw HttpError.notFound();
    if (c.hits >= config.CHAT_POLICY_STRIKES) throw HttpError.forbidden(MSG.chatSuspended);
    if (c.state !== "active" || c.characterState !== "active") throw HttpError.notFound();
    const tier = tierOf(c.tier);
    if (!o.backends.available(tier)) throw new HttpError(503, MSG.chatUnavailable);
    return { tier, earlier: c.earlier };
  }

  /** A guest's first CHAT_FREE_MESSAGES replies are free; counting them needs a transaction (see `openReply`). */
  const countsFreeMessages = (guest: boolean) => guest && config.CHAT_FREE_MESSAGES > 0;

  /** Whether this reply is one of a guest's free ones, counted under the guest's lock in the caller's transaction. */
  async function isFree(runner: SqlRunner, r: ReplyToOpen): Promise<boolean> {
    if (!countsFreeMessages(r.guest)) return false;
    await lockGuestFreeMessages.rows(runner, { userId: r.userId });
    const { used } = (await freeMessagesUsed.first(runner, { userId: r.userId }))!;
    return used < config.CHAT_FREE_MESSAGES;
  }

  /**
   * The reply row and its charge in one statement (`acceptReply`); with `ask`, the person's message too. The
   * statement first takes the conversation's lock (messages of one conversation are accepted one at a time, so their
   * ids, the turn order, follow commit order) and everything it writes waits for it, so it locks in the order the redo
   * transaction does. On the pool it is the whole acceptance in one round trip (decision 227): a short balance makes it
   * undo itself (`refuse_statement`) and answers 402. A guest's free messages are counted under their own lock and in
   * their own statement (a statement's snapshot is taken before any lock it waits for): that runs in the caller's
   * transaction.
   */
  async function openReply(runner: SqlRunner, r: ReplyToOpen): Promise<{ userMessage: ChatMessage | null; reply: ChatMessage }> {
    const free = await isFree(runner, r);
    const cost = free ? 0 : price[r.tier];
    const charge = cost > 0 ? o.credits.chargeInStatement({ userId: r.userId, amount: cost, reason: "chat_message", ...replyCharge }) : null;
    let rows: Awaited<ReturnType<typeof acceptReply.rows>>;
    try {
      rows = await acceptReply.rows(runner, { conversationId: r.conversationId, turn: r.turn, cost, free, charge });
    } catch (err) {
      if (isRefusedStatement(err)) throw new HttpError(402, MSG.notEnoughCredits);
      throw err;
    }
    if (charge) o.credits.chargedInStatement(cost);
    // `charged` is only there to make the statement check the charge; every row that comes back was charged
    const message = ({ asked: _a, charged: _c, ...row }: (typeof rows)[number]): ChatMessage => row;
    const asked = rows.find((m) => m.asked);
    return { userMessage: asked ? message(asked) : null, reply: message(rows.find((m) => !m.asked)!) };
  }

  return {
    price,
    writable,
    countsFreeMessages,
    openReply,
    /** Takes the conversation's lock in a transaction: the same lock `openReply`'s statement takes first. */
    lockConversation: async (tx: Tx | SqlTx, conversationId: number) => void (await lockConversation.rows(tx, { conversationId })),
  };
}

export type Acceptor = ReturnType<typeof createAcceptance>;
