import type { ApiRouter } from "../../http/api.ts";
import { signedMediaRoutes } from "../../storage/signed-media.routes.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import { MESSAGE_MEDIA_PATH } from "./messages.media.ts";
import {
  blockBody,
  massSendAnswer,
  massSendBody,
  massSentAnswer,
  massSentQuery,
  messageAnswer,
  messageMediaQuery,
  sendBody,
  threadAnswer,
  threadAnswerOnly,
  threadIdBody,
  threadQuery,
  threadsAnswer,
  threadsQuery,
  unlockBody,
} from "./messages.schema.ts";
import type { MessagesService } from "./messages.service.ts";

/** Messages between fans and creators (issue 32 item 6, docs/decisions/310). Guests are refused: save the account first. */
export function messagesRoutes(api: ApiRouter, messages: MessagesService, storage: Pick<MediaStorage, "size" | "stream">) {
  const tags = ["messages"];
  const read = ["read", "Message"] as ["read", "Message"];
  const create = ["create", "Message"] as ["create", "Message"];
  api.get(
    "/api/Messages/threads",
    {
      summary: "The caller's threads as a fan, or (`as=creator`) with their page's fans; newest first, with unread counts",
      tags,
      auth: "user",
      can: read,
      query: threadsQuery,
      response: threadsAnswer,
    },
    ({ principal, query }) => messages.threads(principal.userId, query),
  );
  api.get(
    "/api/Messages/thread",
    {
      summary: "One thread's messages for one of its two sides, newest first; locked media without URLs until unlocked",
      tags,
      auth: "user",
      can: read,
      query: threadQuery,
      response: threadAnswer,
    },
    ({ principal, query }) => messages.thread(principal.userId, query),
  );
  api.post(
    "/api/Messages/send",
    {
      summary: "Send a message into a thread, or a fan's first to a page (`home_link`); the creator may attach a library item and lock it behind a price",
      tags,
      auth: "user",
      can: create,
      body: sendBody,
      response: messageAnswer,
    },
    ({ principal, body }) => messages.send(principal.userId, body),
  );
  api.post(
    "/api/Messages/massSend",
    {
      summary: "The creator's message to every member of their page, each a copy in the member's thread",
      tags,
      auth: "user",
      can: create,
      body: massSendBody,
      response: massSendAnswer,
    },
    ({ principal, body }) => messages.massSend(principal.userId, body),
  );
  api.get(
    "/api/Messages/massSent",
    {
      summary: "The creator's messages to all their members, newest first, with how many each reached and how many paid to open it",
      tags,
      auth: "user",
      can: read,
      query: massSentQuery,
      response: massSentAnswer,
    },
    ({ principal, query }) => messages.massSent(principal.userId, query),
  );
  api.post(
    "/api/Messages/read",
    { summary: "Mark a thread read for the caller's side", tags, auth: "user", can: read, body: threadIdBody, response: threadAnswerOnly },
    ({ principal, body }) => messages.read(principal.userId, body.thread_id),
  );
  api.post(
    "/api/Messages/block",
    {
      summary: "The fan blocks the thread's creator (`blocked` 1: no more messages from them, mass ones included) or unblocks (0)",
      tags,
      auth: "user",
      can: create,
      body: blockBody,
      response: threadAnswerOnly,
    },
    ({ principal, body }) => messages.block(principal.userId, body.thread_id, body.blocked === 1),
  );
  api.post(
    "/api/Messages/unlock",
    {
      summary: "Pay a locked message's price once and open it; charged once per message however often it is asked",
      tags,
      auth: "user",
      can: create,
      body: unlockBody,
      response: messageAnswer,
    },
    ({ principal, body }) => messages.unlock(principal.userId, body.message_id),
  );
  signedMediaRoutes(api, storage, {
    tags,
    passPath: "/api/Messages/mediaPass",
    passSummary: "Sets the caller's media pass for message files, so a <video> element can stream those signed for the caller",
    passCan: read,
    // its own name: the library's pass cookie is sent only to the library's route
    cookie: "reverie_message_media_pass",
    mediaPath: MESSAGE_MEDIA_PATH,
    mediaSummary: "A message's file, for the signed-in side of its thread its URL was signed for, once unlocked (404 otherwise); answers Range requests",
    query: messageMediaQuery,
    pass: messages.mediaPass,
    passViewer: messages.passViewer,
    file: messages.file,
  });
}
