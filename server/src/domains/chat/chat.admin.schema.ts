import { z } from "zod";
import { CHARACTER_TIERS, POLICY_HIT_SOURCES } from "../../contract/chat.ts";
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

// What the routes answer (docs/decisions/229).

/** conversations list  */
export const conversationRow = z.object({
  id: z.number(),
  createdAt: z.date(),
  userId: z.number(),
  state: z.enum(CONTENT_STATES),
  characterId: z.number(),
  summary: z.string(),
  summaryUpToId: z.number().nullable(),
  lastMessageAt: z.date(),
  deletedAt: z.date().nullable(),
});

/** conversations get: the conversation with its character's name and its lines */
export const conversationRecord = conversationRow.extend({
  characterName: z.string(),
  lines: z.array(
    z.object({
      id: z.number(),
      role: z.string(),
      content: z.string(),
      status: z.string(),
      createdAt: z.date(),
    }),
  ),
});

/** chat-policy-hits list  */
export const chatPolicyHitRecord = z.object({
  id: z.number(),
  source: z.string(),
  createdAt: z.date(),
  userId: z.number(),
  characterId: z.number().nullable(),
  conversationId: z.number().nullable(),
  rule: z.string(),
  excerpt: z.string(),
  liftedAt: z.date().nullable(),
  liftedById: z.number().nullable(),
});

/** chat-suspensions list  */
export const chatSuspensionRow = z.object({
  id: z.number(),
  userId: z.number(),
  hits: z.number(),
  lastHitAt: z.date().nullable(),
});

/** chat-suspensions get: the person's standing and the hits behind it */
export const chatSuspensionRecord = chatSuspensionRow.extend({
  suspended: z.boolean(),
  strikes: z.number(),
  policyHits: z.array(chatPolicyHitRecord),
});

/** chat-backends list  */
export const chatBackendRecord = z.object({
  id: z.string(),
  name: z.string(),
  model: z.string(),
  tiers: z.array(z.enum(CHARACTER_TIERS)),
  base_url: z.string(),
  requests: z.number(),
  errors: z.number(),
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  p50_first_token_ms: z.number().nullable(),
  p95_first_token_ms: z.number().nullable(),
  avg_total_ms: z.number().nullable(),
  last_error: z.string().nullable(),
});
