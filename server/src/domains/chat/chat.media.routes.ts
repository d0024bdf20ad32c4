import type { RequestHandler } from "express";
import type { ApiRouter } from "../../http/api.ts";
import { acceptOfferBody, mediaQuoteAnswer, mediaQuoteQuery, requestMediaBody } from "./chat.media.schema.ts";
import { requestMediaAnswer } from "./chat.schema.ts";
import type { ChatService } from "./chat.service.ts";

/** Characters' pictures and clips in chat (issue 50): the price before the tap, and the request; followed with replyStream. */
export function chatMediaRoutes(api: ApiRouter, chat: ChatService, hourly: RequestHandler) {
  const tags = ["chat"];
  const readConversation = ["read", "Conversation"] as ["read", "Conversation"];
  api.get(
    "/api/RoleChat/mediaQuote",
    {
      summary:
        "The price of a picture and of a clip of the conversation's character before asking (null where it cannot be made now), and whether it would be the local engine's labelled draft",
      tags,
      auth: "user",
      can: readConversation,
      query: mediaQuoteQuery,
      response: mediaQuoteAnswer,
    },
    ({ principal, query }) => chat.mediaQuote(principal.userId, query.conversation_id),
  );
  api.post(
    "/api/RoleChat/requestMedia",
    {
      summary:
        "Ask the conversation's character for a picture (`image`) or a clip (`video`) of itself, with an optional `prompt` (else the recent lines give the scene). Charged like a generation, refunded once if it fails; answers the task like the other submits and the character's message that carries it. Follow the message with replyStream (progress, then end)",
      tags,
      auth: "user",
      can: ["create", "GenerationTask"],
      body: requestMediaBody,
      before: [hourly],
      response: requestMediaAnswer,
    },
    ({ principal, body }) => chat.requestMedia(principal.userId, body, principal.account),
  );
  api.post(
    "/api/RoleChat/acceptOffer",
    {
      summary:
        "Take the picture or clip the character offered in a reply (`media.state` offered): only this tap renders and charges it, at mediaQuote's price, refunded once if it fails; a second tap is the same picture, charged once. Answers like requestMedia",
      tags,
      auth: "user",
      can: ["create", "GenerationTask"],
      body: acceptOfferBody,
      before: [hourly],
      response: requestMediaAnswer,
    },
    ({ principal, body }) => chat.acceptOffer(principal.userId, body.message_id, principal.account),
  );
}
