import type { Config } from "../../../config.ts";
import type { CharacterTier } from "../../../contract/chat.ts";
import { ChatBackendError, type ChatBackend, type ChatChunk, type ChatRequest } from "./backend.ts";
import { createOpenAiCompatibleBackend } from "./openai-compatible.backend.ts";

/** One finished call to a back end, as the console's back-end status counts it. */
export interface BackendCall {
  backend: string;
  ok: boolean;
  httpStatus?: number;
  error?: string;
  firstTokenMs?: number;
  totalMs: number;
  promptTokens?: number;
  completionTokens?: number;
}

/** A reply chunk with the back end that produced it. */
export type RoutedChunk = ChatChunk & { backend: string };

/** The back end failed after sending part of the reply: the part is kept, nothing is retried elsewhere. */
export class ReplyCutError extends Error {}
/** Every back end of the tier failed before sending anything. */
export class NoReplyError extends Error {}

/**
 * The configured back ends (CHAT_BACKENDS) by tier, in failover order. A back end that refuses or fails before its
 * first token (429, 5xx, unreachable, too slow) hands the request to the next; once text has been sent the reply is
 * that back end's, because switching mid-reply would splice two different answers together.
 */
export function createChatBackends(config: Config, record: (call: BackendCall) => void) {
  const all = config.CHAT_BACKENDS.map((s) => ({
    setting: s,
    backend: createOpenAiCompatibleBackend(s, { firstTokenTimeoutMs: config.CHAT_FIRST_TOKEN_TIMEOUT_SECONDS * 1000 }),
  }));
  const forTier = (tier: CharacterTier): ChatBackend[] => all.filter((b) => b.setting.tiers.includes(tier)).map((b) => b.backend);

  async function* stream(tier: CharacterTier, prompt: (backend: ChatBackend) => ChatRequest, signal: AbortSignal): AsyncIterable<RoutedChunk> {
    const failures: string[] = [];
    for (const backend of forTier(tier)) {
      const started = performance.now();
      let firstTokenMs: number | undefined;
      let completion = 0;
      try {
        for await (const chunk of backend.stream(prompt(backend), signal)) {
          if (chunk.kind === "text" || chunk.kind === "tool") {
            firstTokenMs ??= Math.round(performance.now() - started);
            if (chunk.kind === "text") completion++;
          } else {
            record({
              backend: backend.name,
              ok: true,
              firstTokenMs,
              totalMs: Math.round(performance.now() - started),
              promptTokens: chunk.usage?.promptTokens,
              completionTokens: chunk.usage?.completionTokens ?? completion,
            });
          }
          yield { ...chunk, backend: backend.name };
        }
        return;
      } catch (err) {
        const httpStatus = err instanceof ChatBackendError ? err.httpStatus : undefined;
        const message = signal.aborted ? "stopped" : (err as Error).message;
        record({
          backend: backend.name,
          ok: signal.aborted,
          httpStatus,
          error: signal.aborted ? undefined : message,
          firstTokenMs,
          totalMs: Math.round(performance.now() - started),
          completionTokens: completion,
        });
        if (signal.aborted) return;
        if (firstTokenMs !== undefined) throw new ReplyCutError(message);
        failures.push(`${backend.name}: ${message}`);
      }
    }
    throw new NoReplyError(failures.join("; ") || "no back end serves this tier");
  }

  return {
    /** Whether a tier has at least one back end: without one, chat says it is not available and charges nothing. */
    available: (tier: CharacterTier) => forTier(tier).length > 0,
    /** The tier's first back end: its context size is the one prompts are fitted to. */
    primary: (tier: CharacterTier): ChatBackend | undefined => forTier(tier)[0],
    /** Whether any back end of the tier takes tool calls: only then is a reply offered any (issue 50 item 3). */
    takesTools: (tier: CharacterTier) => forTier(tier).some((b) => b.tools),
    names: () => all.map((b) => ({ name: b.setting.name, model: b.setting.model, tiers: b.setting.tiers, baseUrl: b.setting.baseUrl })),
    stream,
    /** A whole reply as one string (summaries and character drafts): the same failover, no streaming to anyone. */
    async complete(tier: CharacterTier, request: ChatRequest, signal: AbortSignal = new AbortController().signal): Promise<string> {
      let text = "";
      for await (const chunk of stream(tier, () => request, signal)) if (chunk.kind === "text") text += chunk.text;
      return text;
    },
  };
}

export type ChatBackends = ReturnType<typeof createChatBackends>;
