// Word lists of the chat with AI characters, shared by the server and both browser apps. Import-free on purpose.

/** Character tiers: each has its own back ends (CHAT_BACKENDS) and price per message (CHAT_PRICE_<TIER>). */
export const CHARACTER_TIERS = ["standard", "premium"] as const;
export type CharacterTier = (typeof CHARACTER_TIERS)[number];

/** The tier whose back ends write "draft it for me" cards: the editor reads its availability from RoleChat/status. */
export const DRAFT_TIER: CharacterTier = "standard";

/** Who wrote a chat message. */
export const CHAT_ROLES = ["user", "assistant"] as const;
export type ChatRole = (typeof CHAT_ROLES)[number];

/**
 * A reply's state: streaming while the back end sends it; complete; stopped by the person; cut when the back end failed
 * after sending part of it (kept and charged); failed when it failed before sending anything (refunded); refused when
 * the policy check stopped it (refunded).
 */
export const CHAT_MESSAGE_STATUSES = ["streaming", "complete", "stopped", "cut", "failed", "refused"] as const;
export type ChatMessageStatus = (typeof CHAT_MESSAGE_STATUSES)[number];

/** Reply states whose text the conversation keeps (and the next prompt sees). */
export const KEPT_REPLY_STATUSES = ["complete", "stopped", "cut"] as const satisfies readonly ChatMessageStatus[];

/** Catalogue orders of getCharacterList. */
export const CHARACTER_SORTS = ["popular", "new"] as const;
export type CharacterSort = (typeof CHARACTER_SORTS)[number];

/** What a policy hit was found in. */
export const POLICY_HIT_SOURCES = ["user_message", "reply", "character"] as const;
export type PolicyHitSource = (typeof POLICY_HIT_SOURCES)[number];

/** Events of the chat reply stream (text/event-stream). */
export const CHAT_STREAM_EVENTS = ["start", "token", "end", "refused", "error"] as const;
export type ChatStreamEvent = (typeof CHAT_STREAM_EVENTS)[number];
