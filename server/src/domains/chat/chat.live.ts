import type { Logger } from "pino";
import type pg from "pg";
import type { Db } from "../../db/client.ts";
import type { ChatMessage } from "../../db/generated/client.ts";
import { createListenHub } from "../../db/listen-hub.ts";
import { MSG } from "../../http/messages.ts";
import type { ChatMediaView } from "./chat.media.schema.ts";
import { SESSION_ENDED_CHANNEL, type SessionEndedEvent } from "../generation/progress.ts";
import { CHAT_CHANNEL, publishEvent, type LiveEvent } from "./chat.queries.ts";

/** How long a queued reply waits for an earlier one before looking at the database again. */
const WAIT_POLL_MS = 1000;

export type { LiveEvent };

/** What a person's browser receives about a reply. */
export type ReplyEvent =
  | { type: "token"; text: string }
  | { type: "refused"; msg: string }
  /** a character's picture or clip rendering (issue 50): its message, state and percentage */
  | { type: "progress"; id: number; state: string; progress: number }
  | { type: "end"; reply: MessageView };

export interface MessageView {
  id: number;
  role: string;
  content: string;
  status: string;
  reply_to_id: number | null;
  credits: number;
  created_at: string;
  /** the picture or clip the message carries (issue 50); absent where the answer does not look it up */
  media?: ChatMediaView | null;
}

export function messageView(m: ChatMessage): MessageView {
  return { id: m.id, role: m.role, content: m.content, status: m.status, reply_to_id: m.replyToId, credits: m.credits, created_at: m.createdAt.toISOString() };
}

/** A reply being written in this process: its text so far and who is reading it. */
export class ReplyRun {
  text = "";
  readonly abort = new AbortController();
  readonly listeners = new Set<(e: ReplyEvent) => void>();
  finished?: MessageView;
  refused = false;
  /** The account was banned while it was written: stopped, ended with the ban notice, not charged. */
  banned = false;
  /** Followed from another instance (a `follow` event came): pieces are published, not only saved. */
  followed = false;
  /** Saves (and when followed publishes) the text now; set while the reply is being written. */
  flushNow?: () => void;
  constructor(
    readonly id: number,
    readonly userId: number,
    readonly conversationId: number,
  ) {}
  emit(e: ReplyEvent) {
    if (e.type === "end") this.finished = e.reply;
    for (const l of this.listeners) l(e);
  }
}

/** A reply accepted for writing: the person's message (none for a regenerated reply), the reply row, and its run here. */
export interface StartedReply {
  userMessage: ChatMessage | null;
  reply: ChatMessage;
  /** Null when a retried send found its reply (followed from the database). */
  run: ReplyRun | null;
}

/** Follows a reply written in this process: the text so far at once, then every event until its end. */
export function followRun(run: ReplyRun, send: (e: ReplyEvent) => void, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (run.text) send({ type: "token", text: run.text });
    if (run.finished) {
      send({ type: "end", reply: run.finished });
      return resolve();
    }
    const listener = (e: ReplyEvent) => {
      send(e);
      if (e.type === "end") done();
    };
    const done = () => {
      run.listeners.delete(listener);
      resolve();
    };
    run.listeners.add(listener);
    signal.addEventListener("abort", done, { once: true });
  });
}

/** What a reply's readers are told when its account is banned while it streams: SPEC.md §6's ban message. */
export const BANNED_EVENT: ReplyEvent = { type: "refused", msg: MSG.noLoginPermission };

/**
 * Replies live: the ones this process writes (`runs`), and the events every instance shares on CHAT_CHANNEL — pieces
 * of text as they are saved, ends, stop and follow requests. A ban (SESSION_ENDED_CHANNEL, the same event that closes
 * generation's progress streams) stops the account's replies written here and ends its readers here at once.
 */
export function createLive(o: {
  db: Db;
  pool: pg.Pool;
  log: Logger;
  databaseUrl: string | undefined;
  /** The stored reply as its reader sees it, with the character's offer it may carry (chat.media.ts). */
  shown: (userId: number, reply: ChatMessage) => Promise<MessageView>;
}) {
  const hub = createListenHub<LiveEvent>(CHAT_CHANNEL, o.databaseUrl, o.log);
  const bans = createListenHub<SessionEndedEvent>(SESSION_ENDED_CHANNEL, o.databaseUrl, o.log);
  const runs = new Map<number, ReplyRun>();
  /** Waiters for the end of a reply (any instance's), by reply id. */
  const endWaiters = new Map<number, Set<() => void>>();
  /** Readers here of replies written elsewhere, by account: told at once when it is banned. */
  const banWaiters = new Map<number, Set<() => void>>();
  let listening: Promise<unknown> | undefined;

  function heardBan(e: SessionEndedEvent) {
    if (!("banned" in e && e.banned)) return;
    for (const run of runs.values())
      if (run.userId === e.userId && !run.banned) {
        run.banned = true;
        run.abort.abort();
      }
    for (const w of banWaiters.get(e.userId) ?? []) w();
  }

  function heard(e: LiveEvent) {
    if (e.k === "stop") runs.get(e.m)?.abort.abort();
    if (e.k === "follow") {
      const run = runs.get(e.m);
      if (run && !run.followed) {
        run.followed = true;
        run.flushNow?.();
      }
    }
    if (e.k === "end") ended(e.m);
  }

  function listen() {
    return (listening ??= Promise.all([hub.subscribe(heard), bans.subscribe(heardBan)]).catch((err) => {
      listening = undefined;
      throw err;
    }));
  }

  async function publish(event: LiveEvent) {
    await publishEvent.rows(o.pool, { event });
  }

  /** Wakes whoever waits for this reply's end. */
  function ended(replyId: number) {
    for (const w of endWaiters.get(replyId) ?? []) w();
  }

  /** Resolves when this reply ends, or after WAIT_POLL_MS at the latest. */
  function endOrPoll(replyId: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const set = endWaiters.get(replyId) ?? new Set();
      endWaiters.set(replyId, set);
      const done = () => {
        clearTimeout(timer);
        set.delete(done);
        if (!set.size) endWaiters.delete(replyId);
        resolve();
      };
      const timer = setTimeout(done, WAIT_POLL_MS);
      set.add(done);
    });
  }

  /**
   * Follows a reply written elsewhere: the text saved so far, then the pieces published as they are saved. A ban of
   * its account ends it at once with the ban notice (its writer stops it on its own instance).
   */
  async function followRemote(userId: number, replyId: number, send: (e: ReplyEvent) => void, signal: AbortSignal): Promise<void> {
    let offset = 0;
    let banned = false;
    let resolveEnd!: () => void;
    const end = new Promise<void>((r) => (resolveEnd = r));
    const onBan = () => {
      banned = true;
      resolveEnd();
    };
    await listen();
    const waiters = banWaiters.get(userId) ?? new Set();
    banWaiters.set(userId, waiters.add(onBan));
    const unsubscribe = await hub.subscribe((e) => {
      if (e.k === "piece" && e.m === replyId && e.o <= offset && e.o + e.t.length > offset) {
        send({ type: "token", text: e.t.slice(offset - e.o) });
        offset = e.o + e.t.length;
      }
      if (e.k === "end" && e.m === replyId) resolveEnd();
    });
    try {
      // the writer publishes pieces only for followed replies: ask it to, after listening (so nothing is missed)
      await publish({ k: "follow", m: replyId });
      const snapshot = await o.db.chatMessage.findUniqueOrThrow({ where: { id: replyId } });
      if (snapshot.content.length > offset) {
        send({ type: "token", text: snapshot.content.slice(offset) });
        offset = snapshot.content.length;
      }
      if (snapshot.status === "streaming") await Promise.race([end, new Promise((r) => signal.addEventListener("abort", r, { once: true }))]);
      if (signal.aborted) return;
      const final = await o.db.chatMessage.findUniqueOrThrow({ where: { id: replyId } });
      // the text after the last saved piece arrives with the end
      if (final.content.length > offset) send({ type: "token", text: final.content.slice(offset) });
      if (banned) send(BANNED_EVENT);
      else if (final.status === "refused") send({ type: "refused", msg: MSG.chatRefused });
      send({ type: "end", reply: await o.shown(userId, final) });
    } finally {
      unsubscribe();
      waiters.delete(onBan);
      if (!waiters.size) banWaiters.delete(userId);
    }
  }

  return {
    runs,
    listen,
    publish,
    ended,
    endOrPoll,
    followRemote,
    async close() {
      for (const run of runs.values()) run.abort.abort();
      await Promise.all([hub.close(), bans.close()]);
    },
  };
}

export type Live = ReturnType<typeof createLive>;
