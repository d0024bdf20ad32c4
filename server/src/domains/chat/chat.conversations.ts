import type { Config } from "../../config.ts";
import { CHARACTER_TIERS, type CharacterTier } from "../../contract/chat.ts";
import { quotaMessage } from "../../contract/limits.ts";
import type { Db, Tx } from "../../db/client.ts";
import type { ChatMessage, Conversation } from "../../db/generated/client.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import type { ChatBackends } from "./backends/registry.ts";
import type { CharactersService } from "./chat.characters.ts";
import type { ChatMedia } from "./chat.media.ts";
import { lockChatQuota } from "./chat.queries.ts";
import type { Suspensions } from "./chat.suspension.ts";

/** A person's conversations: starting one, the list, one with its messages, deleting one; and chat's status for them. */
export function createConversations(o: {
  db: Db;
  config: Config;
  backends: ChatBackends;
  characters: CharactersService;
  suspensions: Suspensions;
  price: Record<CharacterTier, number>;
  /** The pictures and clips characters sent: shown with their messages, cancelled with the conversation. */
  media: Pick<ChatMedia, "withMedia" | "cancelForConversation">;
}) {
  const { db, config, characters } = o;

  /** The caller's conversation (not deleted); another's is 404, never 403, so ids reveal nothing. */
  async function own(userId: number, conversationId: number) {
    const c = await db.conversation.findFirst({ where: { id: conversationId, userId, deletedAt: null }, include: { character: true } });
    if (!c) throw HttpError.notFound();
    return c;
  }

  async function conversationView(c: Conversation & { character: Parameters<typeof characters.view>[0] }, userId: number) {
    const last = await db.chatMessage.findFirst({
      where: { conversationId: c.id, content: { not: "" } },
      orderBy: { id: "desc" },
      select: { role: true, content: true },
    });
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
    /** Guest merge (auth): the guest's characters and conversations become the account's, in the sign-in's transaction. */
    async moveToUser(tx: Tx, fromUserId: number, toUserId: number): Promise<void> {
      const move = { where: { userId: fromUserId }, data: { userId: toUserId } };
      await tx.character.updateMany(move);
      await tx.conversation.updateMany(move);
    },

    /**
     * Account erasure (privacy, decision 262): the account's conversations go with their messages; its characters are
     * emptied and removed rather than deleted, since other people's conversations with a public one are theirs.
     */
    async eraseUser(tx: Tx, userId: number): Promise<string[]> {
      await tx.conversation.deleteMany({ where: { userId } });
      const own = await tx.character.findMany({ where: { userId }, select: { avatarKey: true, referenceKeys: true } });
      await tx.character.updateMany({
        where: { userId },
        data: {
          name: "",
          description: "",
          personality: "",
          scenario: "",
          greeting: "",
          exampleLines: [],
          tags: [],
          avatarKey: null,
          referenceKeys: [],
          modelId: null,
          isPublic: false,
          state: "removed",
        },
      });
      await tx.chatPolicyHit.updateMany({ where: { userId }, data: { excerpt: "" } });
      return own.flatMap((c) => [...(c.avatarKey ? [c.avatarKey] : []), ...c.referenceKeys]);
    },

    /** What the screens show before anything else: whether chat works here, what a reply costs, free replies left. */
    async status(principal: { userId: number; guest: boolean } | null) {
      const available = Object.fromEntries(CHARACTER_TIERS.map((t) => [t, o.backends.available(t)])) as Record<CharacterTier, boolean>;
      const freeLeft = principal?.guest
        ? Math.max(0, config.CHAT_FREE_MESSAGES - (await db.chatMessage.count({ where: { free: true, conversation: { userId: principal.userId } } })))
        : 0;
      return {
        available: CHARACTER_TIERS.some((t) => available[t]),
        tiers: available,
        message: CHARACTER_TIERS.some((t) => available[t]) ? "" : MSG.chatUnavailable,
        price: o.price,
        free_left: freeLeft,
        suspended: principal ? await o.suspensions.suspended(principal.userId) : false,
      };
    },

    /** creatConversation: a new conversation with a character the caller may read; the greeting is its first line (free). */
    async createConversation(userId: number, characterId: number) {
      await o.suspensions.assertChatAllowed(userId);
      const character = await characters.readable(userId, characterId);
      const conversation = await db.$transaction(async (tx) => {
        await lockChatQuota.rows(tx, { kind: "conversations", userId });
        if ((await tx.conversation.count({ where: { userId, deletedAt: null } })) >= config.QUOTA_CONVERSATIONS)
          throw new HttpError(409, quotaMessage("conversations", config.QUOTA_CONVERSATIONS));
        const c = await tx.conversation.create({ data: { userId, characterId }, include: { character: true } });
        if (character.greeting)
          await tx.chatMessage.create({ data: { conversationId: c.id, role: "assistant", content: character.greeting, status: "complete" } });
        await tx.character.update({ where: { id: characterId }, data: { conversationCount: { increment: 1 } } });
        return c;
      });
      return conversationView(conversation, userId);
    },

    async listConversations(userId: number, q: { page: number; limit: number }) {
      const where = { userId, deletedAt: null };
      const [total, rows] = await Promise.all([
        db.conversation.count({ where }),
        db.conversation.findMany({
          where,
          include: { character: true },
          orderBy: [{ lastMessageAt: "desc" }, { id: "desc" }],
          skip: (q.page - 1) * q.limit,
          take: q.limit,
        }),
      ]);
      return { list: await Promise.all(rows.map((c) => conversationView(c, userId))), total, page: q.page, limit: q.limit };
    },

    /** One conversation with its messages in turn order (the person's message, then its reply). */
    async conversation(userId: number, conversationId: number) {
      const c = await own(userId, conversationId);
      const rows = await db.chatMessage.findMany({ where: { conversationId, status: { notIn: ["failed", "refused"] } }, orderBy: { id: "asc" } });
      const turnOf = (m: ChatMessage) => (m.role === "user" ? m.id : (m.replyToId ?? m.id));
      rows.sort((a, b) => turnOf(a) - turnOf(b) || (a.role === "user" ? -1 : 1) - (b.role === "user" ? -1 : 1) || a.id - b.id);
      return { conversation: await conversationView(c, userId), messages: await o.media.withMedia(userId, rows) };
    },

    async deleteConversation(userId: number, conversationId: number) {
      await own(userId, conversationId);
      // a picture still rendering for it is cancelled and refunded with the deletion (issue 50)
      await db.$transaction(async (tx) => {
        await tx.conversation.update({ where: { id: conversationId }, data: { deletedAt: new Date() } });
        await o.media.cancelForConversation(tx, conversationId);
      });
      return { id: conversationId };
    },
  };
}
