import type { Logger } from "pino";
import type { Config } from "../../config.ts";
import { ruleBrokenByCharacter, ruleBrokenByText, streamChecker } from "../screening/prompt-rules.ts";

interface ModerationAnswer {
  results?: { flagged?: boolean; categories?: Record<string, boolean> }[];
}

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

  return {
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
