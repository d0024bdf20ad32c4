import type { Logger } from "pino";
import type { CharacterTier, ChatMessageStatus } from "../../contract/chat.ts";
import type { ChatBackend, ChatRequest } from "./backends/backend.ts";
import { NoReplyError, ReplyCutError, type ChatBackends } from "./backends/registry.ts";
import type { ReplyRun } from "./chat.live.ts";
import type { Suspensions } from "./chat.suspension.ts";
import { history, type TurnContext } from "./chat.turn.ts";
import type { ChatPolicy } from "./policy.ts";
import type { ChatMetrics } from "../../metrics/metrics.ts";
import { buildPrompt, characterCard, type HistoryMessage } from "./prompt.ts";
import { OFFER_TOOL } from "./chat.media.schema.ts";

/** How a reply's writing went: its status, the back end that wrote it, and the messages its prompt left out. */
export interface Writing {
  status: ChatMessageStatus;
  backend: string | null;
  unsummarized: HistoryMessage[];
  /** The arguments (JSON text) of the character's offer of a picture, when the model called OFFER_TOOL (first call only). */
  offer?: string;
}

/**
 * A reply streamed from the back ends to its readers under the policy: each piece checked before it is shown, the
 * text moderated as it grows (a hit stops the stream), and the whole text checked once more at the end.
 */
export function createReplyStreaming(o: {
  log: Logger;
  backends: ChatBackends;
  policy: ChatPolicy;
  suspensions: Suspensions;
  metrics: ChatMetrics;
  /** Whether the person's replies may offer pictures (chat media on for them), asked only where a back end takes tools. */
  mayOffer: (userId: number) => Promise<boolean>;
}) {
  const { log } = o;
  const recordHit = o.suspensions.recordHit;

  /** The back end's text into the run: each piece checked before it is shown, then sent to the readers and moderated. */
  async function relay(
    run: ReplyRun,
    tier: CharacterTier,
    request: (b: ChatBackend) => ChatRequest,
    moderator: ReturnType<ChatPolicy["streamModerator"]>,
    w: Writing,
  ) {
    const check = o.policy.streamChecker();
    for await (const chunk of o.backends.stream(tier, request, run.abort.signal)) {
      w.backend = chunk.backend;
      if (run.refused) break;
      if (chunk.kind === "tool" && chunk.name === OFFER_TOOL.name) w.offer ??= chunk.arguments;
      if (chunk.kind !== "text") continue;
      // checked before it is shown: a piece that completes a refused pattern never reaches the browser
      const broken = check(chunk.text);
      if (broken) {
        run.refused = true;
        await recordHit({ userId: run.userId, source: "reply", rule: broken, excerpt: run.text + chunk.text, conversationId: run.conversationId });
        run.abort.abort();
        break;
      }
      run.text += chunk.text;
      run.emit({ type: "token", text: chunk.text });
      moderator?.update(run.text, chunk.text);
    }
  }

  /** A reply the stream ended: refused, stopped, or complete unless the whole text breaks a rule. */
  async function endStatus(run: ReplyRun): Promise<ChatMessageStatus> {
    if (run.refused) return "refused";
    if (run.abort.signal.aborted) return "stopped";
    const rule = run.text ? await o.policy.checkText(run.text) : null;
    if (!rule) return "complete";
    run.refused = true;
    await recordHit({ userId: run.userId, source: "reply", rule, excerpt: run.text, conversationId: run.conversationId });
    return "refused";
  }

  /** A reply whose back ends failed: cut (its text kept) or failed; any other error is not theirs and is thrown. */
  function brokenStatus(run: ReplyRun, err: unknown): ChatMessageStatus {
    if (!(err instanceof ReplyCutError || err instanceof NoReplyError)) throw err;
    const status = err instanceof ReplyCutError ? "cut" : "failed";
    log.warn({ err: err.message, replyId: run.id }, status === "cut" ? "chat reply cut by its back end" : "no chat back end could reply");
    return run.refused ? "refused" : status;
  }

  /** Streams the reply from the back ends under the policy's checks; how it went is written into `w`. */
  async function stream(run: ReplyRun, tier: CharacterTier, conversation: TurnContext, replyToId: number, w: Writing) {
    const card = characterCard(conversation);
    const past = history(conversation.messages, replyToId);
    // the offer's tool only where a back end of the tier takes tools: the others never pay for the check
    const tools = o.backends.takesTools(tier) && (await o.mayOffer(run.userId)) ? [OFFER_TOOL] : undefined;
    const request = (b: ChatBackend): ChatRequest => {
      const prompt = buildPrompt({
        card,
        summary: conversation.summary,
        summaryUpToId: conversation.summaryUpToId,
        history: past,
        contextTokens: b.contextTokens,
        replyTokens: b.maxReplyTokens,
      });
      w.unsummarized = prompt.unsummarized;
      return { messages: prompt.messages, maxTokens: b.maxReplyTokens, tools };
    };
    // a moderation hit arrives in the background: the stream is stopped and the reply refused like a rule hit
    let moderationHit: Promise<unknown> = Promise.resolve();
    const moderator = o.policy.streamModerator((rule) => {
      if (run.refused || run.abort.signal.aborted) return;
      run.refused = true;
      moderationHit = recordHit({ userId: run.userId, source: "reply", rule, excerpt: run.text, conversationId: run.conversationId }).catch((err: unknown) =>
        log.warn({ err }, "could not record a chat policy hit"),
      );
      run.abort.abort();
    });
    o.metrics.streamStarted();
    try {
      await relay(run, tier, request, moderator, w);
      moderator?.close();
      w.status = await endStatus(run);
    } catch (err) {
      moderator?.close();
      w.status = brokenStatus(run, err);
    } finally {
      o.metrics.streamEnded();
    }
    await moderationHit;
  }

  return { stream };
}
