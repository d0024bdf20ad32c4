import type { Logger } from "pino";
import type pg from "pg";
import type { LiveEvent, Live, ReplyRun } from "./chat.live.ts";
import { saveAndPublishReplyText, saveReplyText } from "./chat.queries.ts";

/** A running reply's text is saved (and published to other instances) this often, not per token. */
const FLUSH_MS = 500;
/**
 * A reply nobody follows from another instance is only saved this often (what a sweep keeps if the writing process
 * dies): the per-reply statement twice a second was the largest avoidable cost under load (decision 183).
 */
const SAVE_MS = 5_000;
/** NOTIFY payloads must stay under 8000 bytes; longer pieces are split. */
const MAX_PIECE = 2000;

/**
 * Saves a running reply's text while it is written: every SAVE_MS, or every FLUSH_MS with its new pieces published
 * while someone follows it from another instance (then at once: `run.flushNow`). `stop` ends the saving and waits for
 * the last save.
 */
export function saveWhileWriting(run: ReplyRun, o: { pool: pg.Pool; log: Logger; live: Live }) {
  let saved = 0;
  let savedAt = Date.now();
  /** Text up to here has been published; 0 until the reply is followed, so a first follower gets all of it. */
  let published = 0;
  let flushing: Promise<unknown> = Promise.resolve();

  /** Saves the text, and publishes what is new of it from `from` (nothing when `piece` is empty). */
  async function save(text: string, from: number, piece: string) {
    if (!piece) {
      await saveReplyText.rows(o.pool, { replyId: run.id, text });
      return;
    }
    // one raw statement saves the text and publishes the piece, so a follower's snapshot and pieces line up
    const first: LiveEvent = { k: "piece", m: run.id, u: run.userId, o: from, t: piece.slice(0, MAX_PIECE) };
    await saveAndPublishReplyText.rows(o.pool, { replyId: run.id, text, piece: first });
    for (let at = MAX_PIECE; at < piece.length; at += MAX_PIECE)
      await o.live.publish({ k: "piece", m: run.id, u: run.userId, o: from + at, t: piece.slice(at, at + MAX_PIECE) });
  }

  const flush = (now = false) => {
    const fresh = run.text.length !== saved || (run.followed && published < run.text.length);
    if (!fresh || run.refused) return;
    // nobody follows elsewhere: saved every SAVE_MS only, nothing published
    if (!run.followed && !now && Date.now() - savedAt < SAVE_MS) return;
    const text = run.text;
    const from = published;
    const piece = run.followed ? text.slice(from) : "";
    saved = text.length;
    savedAt = Date.now();
    if (run.followed) published = text.length;
    flushing = flushing.then(() => save(text, from, piece)).catch((err: unknown) => o.log.warn({ err }, "chat reply flush failed"));
  };

  run.flushNow = () => flush(true);
  const ticker = setInterval(flush, FLUSH_MS);
  return {
    /** Saves no more. */
    halt: () => clearInterval(ticker),
    /** Saves no more, once the saves under way are done. */
    async stop() {
      clearInterval(ticker);
      await flushing;
    },
  };
}
