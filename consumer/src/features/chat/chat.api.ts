import type { CharacterSort, ChatStreamEvent } from "../../../../server/src/contract/chat.ts";
import type { ChatMediaKind } from "../../../../server/src/contract/chat.ts";
import { api, type ApiData } from "../../lib/api-client.ts";

/** Issue 15's chat calls (SPEC.md §7 "Chat", served under /api/RoleChat/). */

export type Character = ApiData<"/api/RoleChat/characterDetails", "get">;

export interface CharacterInput {
  id?: number;
  name: string;
  description: string;
  personality: string;
  scenario: string;
  greeting: string;
  example_lines: string[];
  tags: string[];
  age?: number | null;
  avatar_image_id?: number;
  is_public: 0 | 1;
}

export type CharacterDraft = Omit<CharacterInput, "id" | "is_public" | "avatar_image_id">;

export type ConversationSummary = ApiData<"/api/RoleChat/creatConversation", "post">;
export type ChatMessage = ApiData<"/api/RoleChat/conversation", "get">["messages"][number];
export type ChatStatus = ApiData<"/api/RoleChat/status", "get">;
export type MediaQuote = ApiData<"/api/RoleChat/mediaQuote", "get">;
export type ChatMedia = NonNullable<ChatMessage["media"]>;

/** SPEC.md §8 text the chat reacts to (opens the buy-credits dialog). */
export const NOT_ENOUGH_CREDITS = "Please get points first";

export const chatApi = {
  status: () => api.get("/api/RoleChat/status", { quiet: true }),
  characters: (q: { page?: number; limit?: number; q?: string; tag?: string; sort?: CharacterSort; mine?: 0 | 1 }) =>
    api.get("/api/RoleChat/getCharacterList", { query: q, quiet: true }),
  character: (id: number) => api.get("/api/RoleChat/characterDetails", { query: { id } }),
  saveCharacter: (input: CharacterInput) => api.post("/api/RoleChat/creatCharacter", input, { quiet: true }),
  /** Paints an avatar from the card in the editor: a text-to-image task, followed with the generation API. */
  paintAvatar: (card: Pick<CharacterInput, "name" | "description" | "personality" | "tags" | "age">, idempotency_key: string) =>
    api.post("/api/RoleChat/generateAvatar", { ...card, age: card.age ?? undefined, idempotency_key }, { quiet: true }),
  /** Keeps a finished avatar picture as one of the person's images (its id goes to avatar_image_id). */
  keepAvatar: (taskId: number) => api.post("/api/RoleChat/keepAvatar", { task_id: taskId }, { quiet: true }),
  draftCharacter: (idea: string) => api.post("/api/RoleChat/generateCharacterInfo", { idea }, { quiet: true, timeoutMs: 120_000 }),
  createConversation: (characterId: number) => api.post("/api/RoleChat/creatConversation", { character_id: characterId }),
  conversations: (page = 1) => api.get("/api/RoleChat/conversationList", { query: { page, limit: 50 } }),
  conversation: (id: number) => api.get("/api/RoleChat/conversation", { query: { conversation_id: id } }),
  deleteConversation: (id: number) => api.post("/api/RoleChat/deleteConversation", { conversation_id: id }),
  stop: (replyId: number) => api.post("/api/RoleChat/stop", { reply_id: replyId }, { quiet: true }),
  /** The price of a picture and of a clip of the conversation's character, shown before the tap (issue 50). */
  mediaQuote: (conversationId: number) => api.get("/api/RoleChat/mediaQuote", { query: { conversation_id: conversationId }, quiet: true }),
  /** Asks the character for a picture or a clip: charged like a generation; the answer carries the character's message. */
  requestMedia: (conversationId: number, kind: ChatMediaKind, prompt: string, idempotency_key: string) =>
    api.post("/api/RoleChat/requestMedia", { conversation_id: conversationId, kind, prompt: prompt || undefined, idempotency_key }, { quiet: true }),
  /** Takes the picture or clip the character offered in a reply: only this tap charges it (a second tap is the same one). */
  acceptOffer: (messageId: number) => api.post("/api/RoleChat/acceptOffer", { message_id: messageId }, { quiet: true }),
};

export interface ReplyHandlers {
  onStart(userMessage: ChatMessage | null, reply: ChatMessage): void;
  onToken(text: string): void;
  onRefused(msg: string): void;
  onEnd(reply: ChatMessage): void;
}

/** Sends a message (or regenerates / edits the last one) and hands the streamed reply to `h` as it arrives. */
export function streamReply(call: "chat" | "regenerate" | "editMessage", body: object, h: ReplyHandlers, signal?: AbortSignal): Promise<void> {
  return api.stream(
    `/api/RoleChat/${call}`,
    body,
    (event, data) => {
      // the event's name says which of the stream's data shapes it carries
      const d = data as { user_message: ChatMessage | null; reply: ChatMessage; t: string; msg: string };
      const kind = event as ChatStreamEvent;
      if (kind === "start") h.onStart(d.user_message, d.reply);
      else if (kind === "token") h.onToken(d.t);
      else if (kind === "refused") h.onRefused(d.msg);
      else if (kind === "end") h.onEnd(d.reply);
    },
    { signal, quiet: true },
  );
}
