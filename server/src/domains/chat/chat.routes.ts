import type { RequestHandler, Response } from "express";
import { openStream } from "./chat.stream.ts";
import type { ApiRouter } from "../../http/api.ts";
import {
  avatarBody,
  chatStreamData,
  characterBody,
  characterIdQuery,
  characterListQuery,
  chatBody,
  conversationAnswer,
  conversationBody,
  conversationIdBody,
  conversationIdQuery,
  conversationListAnswer,
  conversationListQuery,
  characterView,
  creatConversationAnswer,
  deleteConversationAnswer,
  draftBody,
  editBody,
  generateAvatarAnswer,
  generateCharacterInfoAnswer,
  getCharacterListAnswer,
  keepAvatarAnswer,
  keepAvatarBody,
  replyRef,
  replyRefQuery,
  statusAnswer,
  stopAnswer,
} from "./chat.schema.ts";
import { chatMediaRoutes } from "./chat.media.routes.ts";
import { messageView, type ChatService, type ReplyEvent, type StartedReply } from "./chat.service.ts";

/** Hourly rates per account (app.ts builds them from the settings): replies, and each kind of thing one makes. */
export type ChatLimits = Record<"replies" | "characters" | "conversations" | "drafts" | "avatars" | "media", RequestHandler>;

export function chatRoutes(api: ApiRouter, chat: ChatService, limits: ChatLimits) {
  chatMediaRoutes(api, chat, limits.media);
  const tags = ["chat"];
  const before = [limits.replies];
  // an edit makes nothing new: only a new character counts against the hourly rate
  const newCharacter: RequestHandler = (req, res, next) => (req.body?.id ? next() : limits.characters(req, res, next));
  const converse = ["create", "Conversation"] as ["create", "Conversation"];
  const readConversation = ["read", "Conversation"] as ["read", "Conversation"];
  const replyEvents = { kind: "events", schema: chatStreamData, description: "start, token, refused, end; a picture's progress, then end" } as const;

  /** Answers a started reply as an event stream on this request (a replayed send follows the stored reply). */
  async function streamReply(res: Response, userId: number, started: StartedReply) {
    const follow = started.run
      ? (send: (e: ReplyEvent) => void, signal: AbortSignal) => chat.followRun(started.run!, send, signal)
      : await chat.follower(userId, started.reply.id);
    const stream = openStream(res, { user_message: started.userMessage ? messageView(started.userMessage) : null, reply: messageView(started.reply) });
    try {
      await follow(stream.send, stream.signal);
    } finally {
      stream.end();
    }
    return undefined;
  }

  api.get(
    "/api/RoleChat/status",
    {
      summary: "Whether chat is available on this server, the price of a reply by tier, the caller's free replies left",
      tags,
      auth: "public",
      response: statusAnswer,
    },
    ({ principal }) => chat.status(principal.kind === "user" ? { userId: principal.userId, guest: principal.role === "visitor" } : null),
  );

  api.post(
    "/api/RoleChat/creatCharacter",
    {
      summary: "Create a character, or edit one of yours (`id`); every character is an adult",
      tags,
      auth: "user",
      can: ["create", "Character"],
      body: characterBody,
      response: characterView,
      before: [newCharacter],
    },
    ({ principal, body }) => chat.characters.save(principal.userId, body, principal.role === "visitor"),
  );
  api.post(
    "/api/RoleChat/generateCharacterInfo",
    {
      summary: "The model drafts a character card from a one-line idea (`idea`); nothing is saved",
      tags,
      auth: "user",
      can: ["create", "Character"],
      body: draftBody,
      before: [limits.replies, limits.drafts],
      response: generateCharacterInfoAnswer,
    },
    ({ principal, body }) => chat.characters.draft(principal.userId, body.idea),
  );
  api.post(
    "/api/RoleChat/generateAvatar",
    {
      summary:
        "Paint an avatar from the card in the editor (name, description, personality, tags, age) with the AI image engine; charged like a text-to-image, refunded if it fails; 503 when no AI image engine runs. Follow the task with the generation API",
      tags,
      auth: "user",
      can: ["create", "Character"],
      body: avatarBody,
      before: [limits.replies, limits.avatars],
      response: generateAvatarAnswer,
    },
    ({ principal, body }) => chat.characters.paintAvatar(principal.userId, body),
  );
  api.post(
    "/api/RoleChat/keepAvatar",
    {
      summary: "Keep a finished avatar picture (`task_id`) as one of your images; pass its id as avatar_image_id to creatCharacter",
      tags,
      auth: "user",
      can: ["create", "Character"],
      body: keepAvatarBody,
      response: keepAvatarAnswer,
    },
    ({ principal, body }) => chat.characters.keepAvatar(principal.userId, body.task_id),
  );
  api.get(
    "/api/RoleChat/getCharacterList",
    {
      summary: "The character catalogue: public characters (popular or new, `q`, `tag`) or yours (`mine`=1); pages of 10/20/30/50",
      tags,
      auth: "public",
      query: characterListQuery,
      response: getCharacterListAnswer,
    },
    ({ principal, query }) => chat.characters.list(principal.kind === "user" ? principal.userId : null, query),
  );
  api.get(
    "/api/RoleChat/characterDetails",
    { summary: "One character you may talk to", tags, auth: "user", can: ["read", "Character"], query: characterIdQuery, response: characterView },
    ({ principal, query }) => chat.characters.details(principal.userId, query.id),
  );

  api.post(
    "/api/RoleChat/creatConversation",
    {
      summary: "Start a conversation with a character (`character_id`); its greeting is the first line",
      tags,
      auth: "user",
      can: converse,
      body: conversationBody,
      before: [limits.conversations],
      response: creatConversationAnswer,
    },
    ({ principal, body }) => chat.createConversation(principal.userId, body.character_id),
  );
  api.get(
    "/api/RoleChat/conversationList",
    {
      summary: "Your conversations, latest first, each with its character and last line",
      tags,
      auth: "user",
      can: readConversation,
      query: conversationListQuery,
      response: conversationListAnswer,
    },
    ({ principal, query }) => chat.listConversations(principal.userId, query),
  );
  api.get(
    "/api/RoleChat/conversation",
    {
      summary: "One of your conversations with its messages in order",
      tags,
      auth: "user",
      can: readConversation,
      query: conversationIdQuery,
      response: conversationAnswer,
    },
    ({ principal, query }) => chat.conversation(principal.userId, query.conversation_id),
  );
  api.post(
    "/api/RoleChat/deleteConversation",
    { summary: "Delete one of your conversations", tags, auth: "user", can: converse, body: conversationIdBody, response: deleteConversationAnswer },
    ({ principal, body }) => chat.deleteConversation(principal.userId, body.conversation_id),
  );

  api.post(
    "/api/RoleChat/chat",
    {
      summary:
        "Send a message (`conversation_id`, `content`); the reply streams back as Server-Sent Events (start, token, refused, end). Charged when accepted, refunded if no back end replies",
      tags,
      auth: "user",
      can: converse,
      body: chatBody,
      before,
      response: replyEvents,
    },
    async ({ principal, body, res }) => streamReply(res, principal.userId, await chat.send(principal.userId, principal.role === "visitor", body)),
  );
  api.post(
    "/api/RoleChat/regenerate",
    {
      summary: "A new reply to your last message (charged like a message), streamed like chat",
      tags,
      auth: "user",
      can: converse,
      body: conversationIdBody,
      before,
      response: replyEvents,
    },
    async ({ principal, body, res }) =>
      streamReply(res, principal.userId, await chat.regenerate(principal.userId, principal.role === "visitor", body.conversation_id)),
  );
  api.post(
    "/api/RoleChat/editMessage",
    {
      summary: "Edit your last message; it gets a new reply, streamed like chat",
      tags,
      auth: "user",
      can: converse,
      body: editBody,
      before,
      response: replyEvents,
    },
    async ({ principal, body, res }) =>
      streamReply(res, principal.userId, await chat.editLast(principal.userId, principal.role === "visitor", body.conversation_id, body.content)),
  );
  api.post(
    "/api/RoleChat/stop",
    {
      summary: "Stop a reply being written (`reply_id`); what was written is kept",
      tags,
      auth: "user",
      can: converse,
      body: replyRef,
      response: stopAnswer,
    },
    ({ principal, body }) => chat.stop(principal.userId, body.reply_id),
  );
  api.get(
    "/api/RoleChat/replyStream",
    {
      summary:
        "Follow a reply (`reply_id`) from any API instance: the text so far, then the rest as Server-Sent Events; a character's picture or clip: its progress, then end with the message",
      tags,
      auth: "user",
      can: readConversation,
      query: replyRefQuery,
      response: replyEvents,
    },
    async ({ principal, query, res }) => {
      const follow = await chat.follower(principal.userId, query.reply_id);
      const stream = openStream(res);
      try {
        await follow(stream.send, stream.signal);
      } finally {
        stream.end();
      }
      return undefined;
    },
  );
}
