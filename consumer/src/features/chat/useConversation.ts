import { useCallback, useEffect, useRef, useState } from "react";
import { dialogs } from "../../dialogs/dialog-store.ts";
import { translateMessage } from "../../i18n/index.ts";
import { ApiError } from "../../lib/api-client.ts";
import { session } from "../session/session.ts";
import type { ChatMediaKind } from "../../../../server/src/contract/chat.ts";
import { chatApi, NOT_ENOUGH_CREDITS, streamReply, type ChatMessage, type ConversationSummary } from "./chat.api.ts";

/** idle; waiting: sent, no token yet (typing indicator); streaming: text is arriving. */
export type Phase = "idle" | "waiting" | "streaming";

/**
 * One conversation's messages and the reply being written. Tokens are appended to the reply as they arrive; the
 * stored reply replaces it at the end. A refused reply disappears and the refusal is shown instead.
 */
export function useConversation(id: number | null) {
  const [conversation, setConversation] = useState<ConversationSummary | null>(null);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [phase, setPhase] = useState<Phase>("idle");
  const [error, setError] = useState<string | null>(null);
  const replyId = useRef<number | null>(null);
  const abort = useRef<AbortController | null>(null);

  useEffect(() => {
    setConversation(null);
    setMessages([]);
    setError(null);
    if (id === null) return;
    let live = true;
    void chatApi.conversation(id).then((r) => {
      if (!live) return;
      setConversation(r.conversation);
      setMessages(r.messages);
    });
    return () => {
      live = false;
      abort.current?.abort();
    };
  }, [id]);

  const run = useCallback(
    async (call: "chat" | "regenerate" | "editMessage", body: object, optimistic: (m: ChatMessage[]) => ChatMessage[]) => {
      if (id === null) return;
      setError(null);
      setPhase("waiting");
      const controller = new AbortController();
      abort.current = controller;
      setMessages(optimistic);
      try {
        await streamReply(
          call,
          body,
          {
            onStart(userMessage, reply) {
              replyId.current = reply.id;
              setMessages((ms) => {
                const kept = ms.filter((m) => m.id > 0 && m.id !== reply.id);
                const withUser = userMessage ? [...kept.filter((m) => m.id !== userMessage.id), userMessage] : kept;
                return [...withUser, reply];
              });
            },
            onToken(text) {
              setPhase("streaming");
              setMessages((ms) => ms.map((m) => (m.id === replyId.current ? { ...m, content: m.content + text } : m)));
            },
            onRefused(msg) {
              setError(translateMessage(msg));
            },
            onEnd(reply) {
              setMessages((ms) =>
                ms.map((m) => (m.id === reply.id ? reply : m)).filter((m) => !(m.id === reply.id && (reply.status === "refused" || reply.status === "failed"))),
              );
              if (reply.status === "failed") setError(translateMessage("Sorry, the character could not reply. Your credits were returned"));
            },
          },
          controller.signal,
        );
      } catch (e) {
        if (!controller.signal.aborted) {
          const msg = (e as Error).message;
          setMessages((ms) => ms.filter((m) => m.id > 0));
          if (e instanceof ApiError && msg === NOT_ENOUGH_CREDITS) dialogs.open("buyCredits");
          setError(translateMessage(msg));
        }
      } finally {
        replyId.current = null;
        setPhase("idle");
        void session.refreshBalance().catch(() => null);
      }
    },
    [id],
  );

  return {
    conversation,
    messages,
    phase,
    error,
    clearError: () => setError(null),
    send(content: string) {
      const pending: ChatMessage = {
        id: -Date.now(),
        role: "user",
        content,
        status: "complete",
        reply_to_id: null,
        credits: 0,
        created_at: new Date().toISOString(),
      };
      return run("chat", { conversation_id: id, content, idempotency_key: `${id}-${-pending.id}` }, (ms) => [...ms, pending]);
    },
    regenerate() {
      return run("regenerate", { conversation_id: id }, (ms) => dropLastReply(ms));
    },
    edit(content: string) {
      return run("editMessage", { conversation_id: id, content }, (ms) => {
        const kept = dropLastReply(ms);
        const last = [...kept].reverse().find((m) => m.role === "user");
        return kept.map((m) => (m === last ? { ...m, content } : m));
      });
    },
    stop() {
      if (replyId.current) void chatApi.stop(replyId.current);
    },
    /** Asks the character for a picture or a clip (price shown before); its message joins the conversation (the card follows it). */
    requestMedia: (kind: ChatMediaKind, prompt: string) =>
      id === null ? Promise.resolve(false) : media(chatApi.requestMedia(id, kind, prompt, `${id}-${kind}-${Date.now()}`)),
    /** Takes the character's offer (the person's tap, the only thing that charges it); its message now carries the task. */
    acceptOffer: (messageId: number) => media(chatApi.acceptOffer(messageId)),
  };

  /** A charged picture's answer: its message joins (or replaces) the conversation's; a refusal is shown, a short balance offers credits. */
  async function media(call: Promise<{ message: ChatMessage }>): Promise<boolean> {
    setError(null);
    try {
      const r = await call;
      setMessages((ms) => (ms.some((m) => m.id === r.message.id) ? ms.map((m) => (m.id === r.message.id ? r.message : m)) : [...ms, r.message]));
      return true;
    } catch (e) {
      const msg = (e as Error).message;
      if (e instanceof ApiError && msg === NOT_ENOUGH_CREDITS) dialogs.open("buyCredits");
      setError(translateMessage(msg));
      return false;
    } finally {
      void session.refreshBalance().catch(() => null);
    }
  }
}

function dropLastReply(ms: ChatMessage[]): ChatMessage[] {
  const lastUser = [...ms].reverse().find((m) => m.role === "user");
  return lastUser ? ms.filter((m) => m.reply_to_id !== lastUser.id) : ms;
}
