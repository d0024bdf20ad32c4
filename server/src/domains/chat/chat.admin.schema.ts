import { z } from "zod";
import { POLICY_HIT_SOURCES } from "../../contract/chat.ts";
import { CONTENT_STATES } from "../../contract/moderation.ts";
import { idsFilter, intFilter } from "../../http/list-filters.ts";

export const conversationFilter = z.strictObject({
  id: idsFilter,
  userId: intFilter,
  characterId: intFilter,
  state: z.enum(CONTENT_STATES).optional(),
});
export type ConversationFilter = z.infer<typeof conversationFilter>;
export const conversationSortable = ["id", "createdAt", "lastMessageAt", "userId", "characterId"] as const;

export const policyHitFilter = z.strictObject({
  id: idsFilter,
  userId: intFilter,
  conversationId: intFilter,
  characterId: intFilter,
  source: z.enum(POLICY_HIT_SOURCES).optional(),
});
export type PolicyHitFilter = z.infer<typeof policyHitFilter>;
export const policyHitSortable = ["id", "createdAt", "userId", "source", "rule"] as const;

/** Accounts whose chat is suspended; `id` is the user's id. */
export const suspensionFilter = z.strictObject({ id: idsFilter });
export type SuspensionFilter = z.infer<typeof suspensionFilter>;
export const suspensionSortable = ["id", "hits", "lastHitAt"] as const;
