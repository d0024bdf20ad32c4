import type { ChatMediaKind } from "../../contract/chat.ts";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import type { KnownBalance } from "../generation/generation.task.ts";
import { createChatMedia, mediaView, type CharacterMediaPort, type ChatMedia } from "./chat.media.ts";
import { offerArguments, type ChatMediaView } from "./chat.media.schema.ts";
import { createSceneScreening, type SceneScreening } from "./chat.media.scene.ts";
import type { Suspensions } from "./chat.suspension.ts";
import type { ChatPolicy } from "./policy.ts";

/**
 * The character's offers of a picture or clip of itself (issue 50 item 3, docs/decisions/386): the chat model's tool
 * call (OFFER_TOOL) made with a reply is kept on that reply as an offer, and nothing is rendered or charged until the
 * person takes it with a tap (acceptOffer), at the price the app shows from mediaQuote.
 */
export function createChatOffers(o: { db: Db; policy: ChatPolicy; suspensions: Suspensions; scenes: SceneScreening; media: ChatMedia }) {
  const { db, media } = o;

  return {
    /** Whether a reply of this person's may offer a picture (chat media on for them): only then is the model given the tool. */
    mayOffer: media.mayOffer,

    /**
     * The offer that came with a finished reply, kept on it; the offer as its message shows it, or null. Its arguments
     * are the model's: anything besides a kind and a scene drops it, as does a scene breaking the chat policy or placing
     * anyone under 18 with the card and the recent lines (the model wrote it, not the person: no strike).
     */
    async recordOffer(reply: { id: number; userId: number; conversationId: number }, args: string): Promise<ChatMediaView | null> {
      let parsed: unknown;
      try {
        parsed = JSON.parse(args);
      } catch {
        return null;
      }
      const offer = offerArguments.safeParse(parsed);
      if (!offer.success || !(await media.mayOffer(reply.userId))) return null;
      const c = await db.conversation.findFirst({
        where: { id: reply.conversationId, userId: reply.userId, deletedAt: null, state: "active", character: { state: "active" } },
        include: { character: true },
      });
      if (!c || (await o.policy.checkText(offer.data.scene)) || (await o.scenes.ruleOf(c.id, c.character, offer.data.scene)).rule) return null;
      const row = { kind: offer.data.kind, request: offer.data.scene, offered: true, taskId: null };
      await db.chatMedia.create({ data: { messageId: reply.id, kind: row.kind, request: row.request, offered: true } });
      return mediaView(row, null);
    },

    /**
     * acceptOffer: the person's tap, the only thing that renders and charges an offer. Screened again (the conversation
     * may have moved on) and submitted under one key per offer, so a second tap, however soon, is the same picture
     * charged once.
     */
    async acceptOffer(userId: number, messageId: number, known?: KnownBalance) {
      await o.suspensions.assertChatAllowed(userId);
      const s = await media.settingsFor(userId);
      const row = await db.chatMedia.findFirst({
        where: { messageId, offered: true, message: { conversation: { userId, deletedAt: null, state: "active", character: { state: "active" } } } },
        include: { message: { include: { conversation: { include: { character: true } } } } },
      });
      if (!row) throw HttpError.notFound();
      const c = row.message.conversation;
      const scene = await o.scenes.screened(userId, c.id, c.character, "");
      const kind = row.kind as ChatMediaKind;
      return media.deliver(userId, s, c, { kind, request: row.request, scene, idempotencyKey: `chat-offer:${messageId}`, known, offer: row.message });
    },
  };
}

export type ChatOffers = ReturnType<typeof createChatOffers>;

/** Chat's media on the generation domain's port: the scene screening, requests with their messages, and the offers. */
export function createChatMediaParts(o: { db: Db; policy: ChatPolicy; suspensions: Suspensions; port: CharacterMediaPort }) {
  const scenes = createSceneScreening(o);
  const media = createChatMedia({ db: o.db, suspensions: o.suspensions, scenes, media: o.port });
  return { media, offers: createChatOffers({ ...o, scenes, media }) };
}
