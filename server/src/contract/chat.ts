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
export const CHAT_STREAM_EVENTS = ["start", "token", "end", "refused", "error", "progress"] as const;
export type ChatStreamEvent = (typeof CHAT_STREAM_EVENTS)[number];

/**
 * What a character may send of itself in chat (issue 50), by kind with its seconds: a picture, or a 5 s clip (priced
 * by default as one 480P video, item 5). A table rather than a word list: "image" and "video" name other things too.
 */
export const CHAT_MEDIA_SECONDS = { image: 0, video: 5 } as const;
export type ChatMediaKind = keyof typeof CHAT_MEDIA_SECONDS;

/** The consumer app and the console translate by these exact strings. */
export const CHAT_MEDIA_MESSAGES = {
  unavailable: "Pictures from characters are not available right now",
  settingsInvalid: "Chat media settings: enabled and drafts are true or false, prices whole credits from 0, workflows names per engine",
} as const;

/**
 * The keyed site setting operators edit (console › chat media) for pictures and clips in chat; CHAT_MEDIA_DEFAULTS
 * until they first save it. A null price is the generation price of the same request (an image; a 5 s 480P clip).
 */
export const CHAT_MEDIA_SETTING = "chatMedia";
export interface ChatMediaSettings {
  enabled: boolean;
  /** channel codes (users.channel_id) where it is off */
  off_channels: string[];
  price: Record<ChatMediaKind, number | null>;
  /** without a GPU engine, the local engine's labelled draft; false: 503 before any charge */
  drafts: boolean;
  /** the workflow (or template workflow name) each kind runs per GPU engine; none: the engine's own for the mode */
  workflows: Record<ChatMediaKind, Record<string, string>>;
}
export const CHAT_MEDIA_DEFAULTS: ChatMediaSettings = {
  enabled: true,
  off_channels: [],
  price: { image: null, video: null },
  drafts: true,
  workflows: { image: {}, video: {} },
};
