import type { ContentState } from "../../contract/moderation.ts";
import type { Db, Tx } from "../../db/client.ts";
import { matching, pageOf, type ListParams } from "../../db/paging.ts";
import type { ModeratedContent } from "../moderation/moderation.service.ts";
import type { ConversationFilter, PolicyHitFilter } from "./chat.admin.schema.ts";
import type { Suspensions } from "./chat.suspension.ts";

/** The console's views (moderators): conversations with their lines whatever their state, the policy hits, suspensions. */
export function createChatAdmin(db: Db, suspensions: Suspensions) {
  return {
    listConversations: (params: ListParams<ConversationFilter>) => pageOf(db.conversation, params, matching(params.filter, ["userId", "characterId", "state"])),
    async conversation(id: number) {
      const c = await db.conversation.findUnique({ where: { id }, include: { character: { select: { name: true } }, messages: { orderBy: { id: "asc" } } } });
      if (!c) return null;
      const { messages, character, ...rest } = c;
      return {
        ...rest,
        characterName: character.name,
        lines: messages.map((m) => ({ id: m.id, role: m.role, content: m.content, status: m.status, createdAt: m.createdAt })),
      };
    },
    listPolicyHits: (params: ListParams<PolicyHitFilter>) =>
      pageOf(db.chatPolicyHit, params, matching(params.filter, ["userId", "conversationId", "characterId", "source"])),
    policyHit: (id: number) => db.chatPolicyHit.findUnique({ where: { id } }),
    listSuspensions: suspensions.listSuspensions,
    suspension: suspensions.suspensionOf,
    liftSuspension: suspensions.liftSuspension,
  };
}

/**
 * Moderation sees and changes characters and conversations through these (reports, takedowns). A character leaving
 * the active state stops its pictures still rendering: cancelled and refunded in the takedown's transaction (issue 50).
 */
export const moderatedChat = (cancelCharacterMedia: (tx: Tx, characterId: number) => Promise<void>) =>
  ({
    character: {
      find: async (c: Tx | Db, id: number) => {
        const ch = await c.character.findUnique({ where: { id }, select: { userId: true, state: true, isPublic: true } });
        return ch && { userId: ch.userId, state: ch.state, isPublic: ch.isPublic && ch.state !== "removed" };
      },
      setState: async (c: Tx, id: number, state: ContentState, from?: ContentState) => {
        const changed = (await c.character.updateMany({ where: { id, ...(from ? { state: from } : {}) }, data: { state } })).count > 0;
        if (changed && state !== "active") await cancelCharacterMedia(c, id);
        return changed;
      },
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
      setState: async (c: Tx, id: number, state: ContentState, from?: ContentState) =>
        (await c.conversation.updateMany({ where: { id, ...(from ? { state: from } : {}) }, data: { state } })).count > 0,
    },
  }) satisfies Record<"character" | "conversation", ModeratedContent>;
