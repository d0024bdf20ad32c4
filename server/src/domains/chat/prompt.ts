import { encode } from "gpt-tokenizer";
import type { ChatRole } from "../../contract/chat.ts";
import type { PromptMessage } from "./backends/backend.ts";

/**
 * Token counts with OpenAI's o200k_base encoding (gpt-tokenizer). For other models (Llama, Mistral, Qwen...) it is an
 * approximation — their tokenizers differ by roughly ±15% on English text — so prompts keep a safety margin below the
 * context size rather than filling it exactly (docs/decisions/102).
 */
export function countTokens(text: string): number {
  const known = counted.get(text);
  if (known !== undefined) return known;
  const n = encode(text).length;
  if (counted.size >= COUNTED_MAX) counted.delete(counted.keys().next().value!);
  counted.set(text, n);
  return n;
}

/**
 * Counts of recent texts: every reply counts its whole prompt again (the card, every kept turn), and a popular
 * character's card is the same text for everyone who talks to it. Encoding was a visible share of the API thread
 * when 200 replies started at once (docs/decisions/226); a kept count costs a map lookup.
 */
const counted = new Map<string, number>();
const COUNTED_MAX = 5_000;

/** The chat template's cost around each message (role markers and separators), as OpenAI documents it. */
const PER_MESSAGE = 4;
/** Kept free of the context size for the tokenizer approximation. */
const MARGIN_SHARE = 0.1;

export interface CardFields {
  name: string;
  description: string;
  personality: string;
  scenario: string;
  exampleLines: string[];
  age: number | null;
}

/** The system prompt built from a character card. */
export function characterCard(c: CardFields): string {
  const parts = [
    `You are ${c.name}, a character in a role-play chat. Stay in character and answer as ${c.name} would, in the language the person writes in.`,
    c.age ? `${c.name} is ${c.age} years old.` : "",
    c.description && `Who ${c.name} is: ${c.description}`,
    c.personality && `Personality: ${c.personality}`,
    c.scenario && `Scenario: ${c.scenario}`,
    c.exampleLines.length ? `Examples of how ${c.name} talks:\n${c.exampleLines.map((l) => `- ${l}`).join("\n")}` : "",
    "Everyone in this story is an adult (18+). Never write sexual content involving minors and never take part in age-play.",
  ];
  return parts.filter(Boolean).join("\n\n");
}

export interface HistoryMessage {
  id: number;
  role: ChatRole;
  content: string;
}

export interface BuiltPrompt {
  messages: PromptMessage[];
  /** Tokens of the whole prompt, counted. */
  tokens: number;
  /** Older messages left out of the window that the summary does not cover yet (oldest first). */
  unsummarized: HistoryMessage[];
}

const cost = (m: { content: string }) => countTokens(m.content) + PER_MESSAGE;

/**
 * The prompt for the next reply: the card, the running summary of older turns, then as many of the most recent
 * messages (history is chronological and ends with the person's message) as fit in the context size less the reply's
 * tokens and the margin. The newest message is always sent.
 */
export function buildPrompt(o: {
  card: string;
  summary: string;
  summaryUpToId: number | null;
  history: HistoryMessage[];
  contextTokens: number;
  replyTokens: number;
}): BuiltPrompt {
  const system = o.summary ? `${o.card}\n\nWhat happened earlier in this conversation (summary):\n${o.summary}` : o.card;
  const head: PromptMessage = { role: "system", content: system };
  const budget = Math.floor(o.contextTokens * (1 - MARGIN_SHARE)) - o.replyTokens;
  let used = cost(head);
  const window: HistoryMessage[] = [];
  for (let i = o.history.length - 1; i >= 0; i--) {
    const m = o.history[i];
    const c = cost(m);
    if (window.length > 0 && used + c > budget) break;
    used += c;
    window.unshift(m);
  }
  const left = o.history.slice(0, o.history.length - window.length);
  return {
    messages: [head, ...window.map((m) => ({ role: m.role, content: m.content }))],
    tokens: used,
    unsummarized: left.filter((m) => o.summaryUpToId === null || m.id > o.summaryUpToId),
  };
}

/** Largest share of the context a summary request's transcript may take. */
const SUMMARY_INPUT_SHARE = 0.6;
export const SUMMARY_TOKENS = 300;

/**
 * The request that folds older messages into the running summary. Takes the oldest messages that fit; the rest wait
 * for the next reply. Returns null when there is nothing to fold.
 */
export function summaryRequest(o: {
  name: string;
  summary: string;
  older: HistoryMessage[];
  contextTokens: number;
}): { messages: PromptMessage[]; upToId: number } | null {
  const budget = Math.floor(o.contextTokens * SUMMARY_INPUT_SHARE) - countTokens(o.summary);
  const lines: string[] = [];
  let used = 0;
  let upToId = 0;
  for (const m of o.older) {
    const line = `${m.role === "user" ? "Person" : o.name}: ${m.content}`;
    const c = countTokens(line) + 1;
    if (lines.length > 0 && used + c > budget) break;
    used += c;
    lines.push(line);
    upToId = m.id;
  }
  if (!lines.length) return null;
  return {
    upToId,
    messages: [
      {
        role: "system",
        content: `You keep the memory of a role-play chat between a person and ${o.name}. Write a concise summary (at most 200 words) of everything that happened, keeping names, facts, promises and the current situation. Answer with the summary only.`,
      },
      { role: "user", content: `${o.summary ? `Summary so far:\n${o.summary}\n\n` : ""}New part of the conversation:\n${lines.join("\n")}` },
    ],
  };
}
