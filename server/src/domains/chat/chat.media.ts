import { CHAT_MEDIA_MESSAGES, type ChatMediaKind, type ChatMediaSettings } from "../../contract/chat.ts";
import { ENDED_TASK_STATUSES } from "../../contract/generation.ts";
import { QUEUE_STATES } from "../../contract/metrics.ts";
import type { Db, Tx } from "../../db/client.ts";
import type { Character, ChatMessage } from "../../db/generated/client.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import type { CharacterMediaPlan, CharacterMediaRequest } from "../generation/generation.chat-media.ts";
import type { KnownBalance } from "../generation/generation.task.ts";
import { storedChatMedia } from "../site/site.chat-media.ts";
import { messageView, type MessageView, type ReplyEvent } from "./chat.live.ts";
import type { ChatMediaView, RequestMediaBody } from "./chat.media.schema.ts";
import { MEDIA_NEGATIVE, mediaPrompt, type SceneScreening } from "./chat.media.scene.ts";
import type { Suspensions } from "./chat.suspension.ts";

/** What the generation domain does for chat's media (services.ts wires it: chat-generation.ts). */
export interface CharacterMediaPort {
  quote(plan: CharacterMediaPlan): Promise<{ points: number; engine: string; label: string; draft: boolean; available: boolean }>;
  submit(userId: number, r: CharacterMediaRequest): Promise<{ id: number; cost: number; status: string; paid_with: string }>;
  /** The person's own tasks among `taskIds` as the studio shows them (signed URLs while ready), by id; one read for a page. */
  views(userId: number, taskIds: number[]): Promise<Map<number, TaskView>>;
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

/** A media row as its message shows it, with its task's view (null: none, or none readable). */
export function mediaView(m: { kind: string; request: string; taskId: number | null; offered: boolean }, t: TaskView | null): ChatMediaView {
  // an offer not taken yet has no task; otherwise no task (deleted with the person's results) or none readable: nothing to show
  const state = m.offered && m.taskId === null ? "offered" : (t?.state ?? "removed");
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
  };
}

/**
 * Characters' pictures and clips in chat (issue 50, docs/decisions/365). The person's request is screened here (the
 * chat policy on the card, the recent lines and the request: a character or conversation suggesting a minor never
 * gets media) and the generation domain's submit charges and renders it; the message that carries it is an
 * assistant line linked to that task, so its state, progress, signed files, failure and refund are the task's own.
 */
export function createChatMedia(o: { db: Db; suspensions: Suspensions; scenes: SceneScreening; media: CharacterMediaPort }) {
  const { db, media, scenes } = o;

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
    // every other picture of its look, for a workflow that reads several (decision 385)
    referenceKeys: c.avatarKey ? c.referenceKeys : c.referenceKeys.slice(1),
    // the owner's own likeness model renders only the owner's pictures (decision 366)
    model: c.modelId && c.userId === userId ? { userId, modelId: c.modelId } : undefined,
  });

  /**
   * The messages with the media they carry (none for a line of text): the media rows, then their tasks, in one query
   * each however many messages there are. A taken-down character's media show as removed.
   */
  async function withMedia(userId: number, messages: ChatMessage[]): Promise<(MessageView & { media: ChatMediaView | null })[]> {
    const ids = messages.filter((m) => m.role === "assistant").map((m) => m.id);
    const rows = ids.length
      ? await db.chatMedia.findMany({
          where: { messageId: { in: ids } },
          include: { message: { select: { conversation: { select: { character: { select: { state: true } } } } } } },
        })
      : [];
    const shown = rows.filter((r) => r.taskId !== null && r.message.conversation.character.state === "active").map((r) => r.taskId!);
    const tasks = await media.views(userId, shown);
    const byMessage = new Map(rows.map((r) => [r.messageId, r]));
    return messages.map((m) => {
      const r = byMessage.get(m.id);
      return { ...messageView(m), media: r ? mediaView(r, (r.message.conversation.character.state === "active" && tasks.get(r.taskId!)) || null) : null };
    });
  }

  /**
   * The message carrying the task, made once per task (a retried request finds it). The conversation's row is locked
   * first, the lock its deletion takes too: a conversation deleted before this cancels and refunds the task here.
   */
  async function attach(conversationId: number, taskId: number, kind: ChatMediaKind, request: string, offer?: ChatMessage): Promise<ChatMessage> {
    return db.$transaction(async (tx) => {
      // the row lock the deletion takes too; a conversation deleted first is not touched (read again after its commit)
      const open = await tx.conversation.updateMany({ where: { id: conversationId, deletedAt: null }, data: { lastMessageAt: new Date() } });
      if (!open.count) {
        await media.cancel(tx, [taskId], "conversation deleted");
        throw HttpError.notFound();
      }
      const earlier = await tx.chatMedia.findUnique({ where: { taskId }, include: { message: true } });
      if (earlier) return earlier.message;
      // an accepted offer's task joins the message that offered it
      if (offer) {
        await tx.chatMedia.update({ where: { messageId: offer.id }, data: { taskId } });
        return offer;
      }
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

  /**
   * A picture or clip charged and delivered: the character's look, the recent scene and the request as its prompt,
   * submitted (ledger, idempotency, refunds: the generation domain's), then carried by its message (`offer`: the reply
   * that offered it). Answers the task like every submit, with the message as the person sees it.
   */
  async function deliver(
    userId: number,
    s: ChatMediaSettings,
    c: { id: number; character: Character },
    r: { kind: ChatMediaKind; request: string; scene: string[]; idempotencyKey?: string; known?: KnownBalance; offer?: ChatMessage },
  ) {
    const task = await media.submit(userId, {
      ...planOf(s, r.kind, c.character, userId),
      prompt: mediaPrompt(c.character, r.scene, r.request, r.kind),
      negativePrompt: MEDIA_NEGATIVE,
      idempotencyKey: r.idempotencyKey,
      known: r.known,
    });
    const message = await attach(c.id, task.id, r.kind, r.request, r.offer);
    const [view] = await withMedia(userId, [message]);
    return { ...task, message: view };
  }

  /** Whether a reply of this person's may offer a picture (chat media on for their channel): only then is it given the tool. */
  const mayOffer = (userId: number): Promise<boolean> =>
    settingsFor(userId).then(
      () => true,
      (err: unknown) => {
        if (err instanceof HttpError) return false;
        throw err;
      },
    );

  return {
    withMedia,
    mayOffer,
    settingsFor,
    deliver,

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
      const scene = await scenes.screened(userId, c.id, c.character, request);
      return deliver(userId, s, c, { kind: b.kind, request, scene, idempotencyKey: b.idempotency_key && `chat-media:${c.id}:${b.idempotency_key}`, known });
    },

    /**
     * A media message's progress as the reply stream's events: `progress` while it renders, then `end` with the message
     * and its media. Null when the message carries none (a text reply).
     */
    async mediaFollower(userId: number, messageId: number) {
      const row = await db.chatMedia.findUnique({ where: { messageId }, include: { message: true } });
      // an offer not taken is followed as the reply it came with
      if (!row?.taskId) return null;
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
