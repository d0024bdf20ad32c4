import { CHAT_MEDIA_MESSAGES, KEPT_REPLY_STATUSES, type ChatMediaKind, type ChatMediaSettings } from "../../contract/chat.ts";
import { ENDED_TASK_STATUSES } from "../../contract/generation.ts";
import { QUEUE_STATES } from "../../contract/metrics.ts";
import type { Db, Tx } from "../../db/client.ts";
import type { Character, ChatMessage } from "../../db/generated/client.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import type { CharacterMediaPlan, CharacterMediaRequest } from "../generation/generation.chat-media.ts";
import type { KnownBalance } from "../generation/generation.task.ts";
import { storedChatMedia } from "../site/site.chat-media.ts";
import { cardText } from "./chat.characters.ts";
import { messageView, type MessageView, type ReplyEvent } from "./chat.live.ts";
import type { ChatMediaView, RequestMediaBody } from "./chat.media.schema.ts";
import type { ChatPolicy } from "./policy.ts";
import type { Suspensions } from "./chat.suspension.ts";

/** The lines of the conversation a picture's scene is taken from. */
const SCENE_LINES = 6;
/** Kept out of every character picture: characters are adults, and the picture is of the character alone. */
const MEDIA_NEGATIVE = "child, minor, teenager, young-looking, school uniform, text, watermark, signature, deformed, extra limbs";

/** What the generation domain does for chat's media (services.ts wires it: chat-generation.ts). */
export interface CharacterMediaPort {
  quote(plan: CharacterMediaPlan): Promise<{ points: number; engine: string; label: string; draft: boolean; available: boolean }>;
  submit(userId: number, r: CharacterMediaRequest): Promise<{ id: number; cost: number; status: string; paid_with: string }>;
  /** The person's own task as the studio shows it (signed URLs while it is ready); null when it is not theirs or gone. */
  view(userId: number, taskId: number): Promise<TaskView | null>;
  /** Fails and refunds unfinished tasks in the caller's transaction (once, however often asked). */
  cancel(tx: Tx, taskIds: number[], error: string): Promise<void>;
  /** Every task's status and percentage, from any worker; answers the unsubscribe. */
  watch(listener: (e: { taskId: number; userId: number; status: string; progress: number }) => void): Promise<() => void>;
}

/** The fields of a task's view chat shows (generation.views.ts). */
export interface TaskView {
  state: string;
  progress: number;
  cost: number;
  engine: string;
  label: string;
  image_url: string | null;
  video_url: string | null;
  poster_url: string | null;
  msg: string | null;
  estimate_seconds: number | null;
}

const ENDED = new Set<string>(ENDED_TASK_STATUSES);
const RENDERING = new Set<string>(QUEUE_STATES);

/** The picture's words: the character's look, the conversation's recent scene, then what the person asked for. */
function mediaPrompt(c: Pick<Character, "name" | "description" | "age">, scene: string[], request: string, kind: ChatMediaKind): string {
  const who = c.age ? `${c.name}, a ${c.age}-year-old adult` : `${c.name}, an adult`;
  const shot = kind === "video" ? "A short clip of" : "A photo of";
  const parts = [`${shot} ${who}`, c.description, scene.length ? `Scene: ${scene.join(" ").slice(-500)}` : "", request ? `Request: ${request}` : ""];
  return `${parts.filter(Boolean).join(". ")}. Same face and look as the reference, natural light.`.slice(0, 1000);
}

/**
 * Characters' pictures and clips in chat (issue 50, docs/decisions/365). The person's request is screened here (the
 * chat policy on the card, the recent lines and the request: a character or conversation suggesting a minor never
 * gets media) and the generation domain's submit charges and renders it; the message that carries it is an
 * assistant line linked to that task, so its state, progress, signed files, failure and refund are the task's own.
 */
export function createChatMedia(o: { db: Db; policy: ChatPolicy; suspensions: Suspensions; media: CharacterMediaPort }) {
  const { db, media } = o;

  /** The settings in force for this account's channel; 503 where it is off. */
  async function settingsFor(userId: number): Promise<ChatMediaSettings> {
    const [s, user] = await Promise.all([storedChatMedia(db), db.user.findUnique({ where: { id: userId }, select: { channelId: true } })]);
    if (!s.enabled || (user?.channelId && s.off_channels.includes(user.channelId))) throw new HttpError(503, CHAT_MEDIA_MESSAGES.unavailable);
    return s;
  }

  /** The caller's conversation with an active character, both not taken down; else 404. */
  async function activeConversation(userId: number, conversationId: number) {
    const c = await db.conversation.findFirst({
      where: { id: conversationId, userId, deletedAt: null, state: "active", character: { state: "active" } },
      include: { character: true },
    });
    if (!c) throw HttpError.notFound();
    return c;
  }

  const planOf = (s: ChatMediaSettings, kind: ChatMediaKind, c: Character, userId: number): CharacterMediaPlan => ({
    kind,
    price: s.price[kind],
    drafts: s.drafts,
    workflows: s.workflows[kind],
    imageKey: c.avatarKey ?? c.referenceKeys[0],
    // the owner's own likeness model renders only the owner's pictures (decision 366)
    model: c.modelId && c.userId === userId ? { userId, modelId: c.modelId } : undefined,
  });

  /**
   * The recent kept lines, as the scene. A request breaking the chat policy is refused and recorded like a message;
   * then the card, the scene and the request are read together as a character card is: anything placing the character
   * (or anyone in the scene) under 18 refuses the picture, before anything is charged.
   */
  async function screenedScene(userId: number, conversationId: number, c: Character, request: string): Promise<string[]> {
    if (request) await o.suspensions.checkUserText(userId, conversationId, request);
    const lines = await db.chatMessage.findMany({
      where: { conversationId, status: { in: [...KEPT_REPLY_STATUSES] }, content: { not: "" } },
      orderBy: { id: "desc" },
      take: SCENE_LINES,
      select: { content: true },
    });
    const scene = lines.reverse().map((l) => l.content);
    const text = [cardText(c), ...scene, request].join("\n");
    const rule = await o.policy.checkCharacter(text, c.age);
    if (rule) {
      // counted toward a suspension like a character card refused for the same reason
      await o.suspensions.recordHit({ userId, source: "character", rule, excerpt: text.slice(0, 500), conversationId, characterId: c.id });
      throw HttpError.badRequest(MSG.characterMinor);
    }
    return scene;
  }

  async function viewOf(userId: number, m: { kind: string; request: string; taskId: number | null }, characterActive: boolean) {
    const t = m.taskId && characterActive ? await media.view(userId, m.taskId) : null;
    // no task (deleted with the person's results) or none readable: nothing to show
    const state = t?.state ?? "removed";
    return {
      kind: m.kind as ChatMediaKind,
      request: m.request,
      task_id: m.taskId,
      state,
      progress: t?.progress ?? 0,
      cost: t?.cost ?? 0,
      label: t?.label ?? "",
      draft: t?.engine === "local",
      image_url: t?.image_url ?? null,
      video_url: t?.video_url ?? null,
      poster_url: t?.poster_url ?? null,
      msg: t?.msg ?? (state === "removed" ? MSG.notFound : null),
      estimate_seconds: t?.estimate_seconds ?? null,
    } satisfies ChatMediaView;
  }

  /** The messages with the media they carry (none for a line of text). */
  async function withMedia(userId: number, messages: ChatMessage[]): Promise<(MessageView & { media: ChatMediaView | null })[]> {
    const ids = messages.filter((m) => m.role === "assistant").map((m) => m.id);
    const rows = ids.length
      ? await db.chatMedia.findMany({
          where: { messageId: { in: ids } },
          include: { message: { select: { conversation: { select: { character: { select: { state: true } } } } } } },
        })
      : [];
    const byMessage = new Map(rows.map((r) => [r.messageId, r]));
    return Promise.all(
      messages.map(async (m) => {
        const r = byMessage.get(m.id);
        return { ...messageView(m), media: r ? await viewOf(userId, r, r.message.conversation.character.state === "active") : null };
      }),
    );
  }

  /**
   * The message carrying the task, made once per task (a retried request finds it). The conversation's row is locked
   * first, the lock its deletion takes too: a conversation deleted before this cancels and refunds the task here.
   */
  async function attach(conversationId: number, taskId: number, kind: ChatMediaKind, request: string): Promise<ChatMessage> {
    return db.$transaction(async (tx) => {
      // the row lock the deletion takes too; a conversation deleted first is not touched (read again after its commit)
      const open = await tx.conversation.updateMany({ where: { id: conversationId, deletedAt: null }, data: { lastMessageAt: new Date() } });
      if (!open.count) {
        await media.cancel(tx, [taskId], "conversation deleted");
        throw HttpError.notFound();
      }
      const earlier = await tx.chatMedia.findUnique({ where: { taskId }, include: { message: true } });
      if (earlier) return earlier.message;
      const message = await tx.chatMessage.create({ data: { conversationId, role: "assistant", content: "", status: "complete" } });
      await tx.chatMedia.create({ data: { messageId: message.id, taskId, kind, request } });
      return message;
    });
  }

  /** The unfinished media tasks of the conversations `conversation` picks, failed and refunded in `tx`. */
  async function cancelWhere(tx: Tx, conversation: { id: number } | { characterId: number }, error: string) {
    const rows = await tx.chatMedia.findMany({
      where: { task: { status: { in: [...QUEUE_STATES] } }, message: { conversation } },
      select: { taskId: true },
    });
    await media.cancel(
      tx,
      rows.flatMap((r) => (r.taskId ? [r.taskId] : [])),
      error,
    );
  }

  return {
    withMedia,

    /** The price of each kind before the tap, and whether it would be the local draft; `available` false where it is off. */
    async mediaQuote(userId: number, conversationId: number) {
      const c = await activeConversation(userId, conversationId);
      let s: ChatMediaSettings;
      try {
        s = await settingsFor(userId);
      } catch (err) {
        if (err instanceof HttpError) return { available: false, message: CHAT_MEDIA_MESSAGES.unavailable, image: null, video: null };
        throw err;
      }
      const quote = (kind: ChatMediaKind) =>
        media.quote(planOf(s, kind, c.character, userId)).catch((err: unknown) => {
          if (err instanceof HttpError) return null;
          throw err;
        });
      const [image, video] = await Promise.all([quote("image"), quote("video")]);
      return { available: !!(image?.available || video?.available), message: "", image, video };
    },

    /** requestMedia: the character's picture or clip, charged as a generation and delivered as its message. */
    async requestMedia(userId: number, b: RequestMediaBody, known?: KnownBalance) {
      await o.suspensions.assertChatAllowed(userId);
      const s = await settingsFor(userId);
      const c = await activeConversation(userId, b.conversation_id);
      const request = b.prompt ?? "";
      const scene = await screenedScene(userId, c.id, c.character, request);
      const ch = c.character;
      const task = await media.submit(userId, {
        ...planOf(s, b.kind, ch, userId),
        prompt: mediaPrompt(ch, scene, request, b.kind),
        negativePrompt: MEDIA_NEGATIVE,
        idempotencyKey: b.idempotency_key && `chat-media:${c.id}:${b.idempotency_key}`,
        known,
      });
      const message = await attach(c.id, task.id, b.kind, request);
      const [view] = await withMedia(userId, [message]);
      return { ...task, message: view };
    },

    /**
     * A media message's progress as the reply stream's events: `progress` while it renders, then `end` with the message
     * and its media. Null when the message carries none (a text reply).
     */
    async mediaFollower(userId: number, messageId: number) {
      const row = await db.chatMedia.findUnique({ where: { messageId }, include: { message: true } });
      if (!row) return null;
      return async (send: (e: ReplyEvent) => void, signal: AbortSignal) => {
        let wake!: () => void;
        const ended = new Promise<void>((r) => (wake = r));
        const off = await media.watch((e) => {
          if (e.taskId !== row.taskId || e.userId !== userId) return;
          if (ENDED.has(e.status)) wake();
          else send({ type: "progress", id: messageId, state: e.status, progress: e.progress });
        });
        try {
          const [now] = await withMedia(userId, [row.message]);
          if (now.media && !RENDERING.has(now.media.state)) return send({ type: "end", reply: now });
          send({ type: "progress", id: messageId, state: now.media?.state ?? "queued", progress: now.media?.progress ?? 0 });
          await Promise.race([ended, new Promise((r) => signal.addEventListener("abort", r, { once: true }))]);
          if (signal.aborted) return;
          const [done] = await withMedia(userId, [row.message]);
          send({ type: "end", reply: done });
        } finally {
          off();
        }
      };
    },

    /** A deleted conversation's pictures still rendering are cancelled and refunded, in the deletion's transaction. */
    cancelForConversation: (tx: Tx, conversationId: number) => cancelWhere(tx, { id: conversationId }, "conversation deleted"),
    /** A character taken down: every picture of it still rendering is cancelled and refunded, in the takedown's transaction. */
    cancelForCharacter: (tx: Tx, characterId: number) => cancelWhere(tx, { characterId }, "character taken down"),
  };
}

export type ChatMedia = ReturnType<typeof createChatMedia>;
