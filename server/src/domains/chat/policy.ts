import type { Logger } from "pino";
import type { Config } from "../../config.ts";
import { ruleBrokenByCharacter, ruleBrokenByText, streamChecker } from "../screening/prompt-rules.ts";

interface ModerationAnswer {
  results?: { flagged?: boolean; categories?: Record<string, boolean> }[];
}

/** A piece ending a sentence (or a line) in the scripts chat is used in. */
const SENTENCE_END = /[.!?…。！？\n]/;

/** The moderation categories that make a message a policy hit (OpenAI's moderation API names). */
const REFUSED_CATEGORIES = ["sexual/minors"];

/**
 * The chat policy check: the rule set in screening/prompt-rules.ts (shared with generation prompts), plus, when CHAT_MODERATION_URL is set, an OpenAI-compatible
 * moderation endpoint. The endpoint is an addition, not a gate: when it fails the rules alone decide and the failure
 * is logged, so an outage of the moderation model does not stop every conversation.
 */
export function createChatPolicy(config: Config, log: Logger) {
  async function moderated(text: string): Promise<string | null> {
    if (!config.CHAT_MODERATION_URL) return null;
    try {
      const res = await fetch(`${config.CHAT_MODERATION_URL.replace(/\/$/, "")}/moderations`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...(config.CHAT_MODERATION_KEY ? { Authorization: `Bearer ${config.CHAT_MODERATION_KEY}` } : {}) },
        body: JSON.stringify({ model: config.CHAT_MODERATION_MODEL, input: text }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const answer = (await res.json()) as ModerationAnswer;
      const categories = answer.results?.[0]?.categories ?? {};
      const hit = REFUSED_CATEGORIES.find((c) => categories[c]);
      return hit ? `moderation:${hit}` : null;
    } catch (err) {
      log.warn({ err }, "chat moderation endpoint failed; the rule set alone decided");
      return null;
    }
  }

  /**
   * The moderation endpoint on a reply while it streams (decision 182), without ever holding a token back: `update` is
   * called with the text after each piece and starts a check in the background when enough new text has come (the
   * first sentence end after CHAT_MODERATION_STREAM_CHARS characters, or twice that), one check at a time. The first
   * hit calls `onHit` once; after `close` (the reply ended) late answers are ignored: the whole reply is checked then.
   * Null without an endpoint.
   */
  function streamModerator(onHit: (rule: string) => void) {
    if (!config.CHAT_MODERATION_URL) return null;
    const every = config.CHAT_MODERATION_STREAM_CHARS;
    let checkedUpTo = 0;
    let inFlight = false;
    let closed = false;
    let latest = "";
    const due = (text: string, piece: string) => {
      const fresh = text.length - checkedUpTo;
      return fresh >= 2 * every || (fresh >= every && SENTENCE_END.test(piece));
    };
    const check = (text: string) => {
      inFlight = true;
      checkedUpTo = text.length;
      void moderated(text).then((rule) => {
        inFlight = false;
        if (closed) return;
        if (rule) {
          closed = true;
          return onHit(rule);
        }
        // text that came while this check ran is looked at now rather than at the next piece
        if (latest.length - checkedUpTo >= every) check(latest);
      });
    };
    return {
      update(text: string, piece: string) {
        latest = text;
        if (!closed && !inFlight && due(text, piece)) check(text);
      },
      close() {
        closed = true;
      },
    };
  }

  return {
    streamModerator,
    /** The rule set alone, piece by piece: run on a reply as it streams, before each piece is shown. */
    streamChecker,
    /** Rules, then the moderation endpoint: the rule or category a message or whole reply breaks, or null. */
    async checkText(text: string): Promise<string | null> {
      return ruleBrokenByText(text) ?? (await moderated(text));
    },
    async checkCharacter(card: string, age: number | null | undefined): Promise<string | null> {
      return ruleBrokenByCharacter(card, age) ?? (await moderated(card));
    },
  };
}

export type ChatPolicy = ReturnType<typeof createChatPolicy>;
