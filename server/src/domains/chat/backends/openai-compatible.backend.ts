import type { ChatBackendSetting } from "../../../config.ts";
import { ChatBackendError, type ChatBackend, type ChatChunk, type ChatRequest, type ChatUsage } from "./backend.ts";

interface CompletionChunk {
  choices?: { delta?: { content?: string | null }; finish_reason?: string | null }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: string };
}

/**
 * The OpenAI chat completions API with `stream: true`, as vLLM, llama.cpp's llama-server, Ollama and hosted routers
 * serve it: server-sent `data:` lines of JSON chunks ending with `data: [DONE]`; `stream_options.include_usage` asks for
 * a last chunk carrying token usage (servers that ignore it simply send none). A server that sends no first token
 * within `firstTokenTimeoutMs` is given up on, so a slow back end fails over instead of holding the person up.
 */
export function createOpenAiCompatibleBackend(setting: ChatBackendSetting, o: { firstTokenTimeoutMs: number }): ChatBackend {
  const url = `${setting.baseUrl.replace(/\/$/, "")}/chat/completions`;
  return {
    name: setting.name,
    model: setting.model,
    contextTokens: setting.contextTokens,
    maxReplyTokens: setting.maxReplyTokens,
    async *stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ChatChunk> {
      const firstToken = new AbortController();
      const timer = setTimeout(() => firstToken.abort(), o.firstTokenTimeoutMs);
      const both = AbortSignal.any([signal, firstToken.signal]);
      let res: Response;
      try {
        res = await fetch(url, {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: "text/event-stream", ...(setting.apiKey ? { Authorization: `Bearer ${setting.apiKey}` } : {}) },
          body: JSON.stringify({
            model: setting.model,
            messages: request.messages,
            stream: true,
            stream_options: { include_usage: true },
            max_tokens: Math.min(request.maxTokens, setting.maxReplyTokens),
            ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
          }),
          signal: both,
        });
      } catch (err) {
        clearTimeout(timer);
        if (signal.aborted) throw err;
        throw new ChatBackendError(firstToken.signal.aborted ? "no first token in time" : `unreachable: ${(err as Error).message}`);
      }
      if (!res.ok || !res.body) {
        clearTimeout(timer);
        const text = await res.text().catch(() => "");
        throw new ChatBackendError(`HTTP ${res.status}: ${text.slice(0, 200)}`, res.status);
      }
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      let finishReason: string | null = null;
      let usage: ChatUsage | null = null;
      let started = false;
      try {
        for (;;) {
          let read: Awaited<ReturnType<typeof reader.read>>;
          try {
            read = await reader.read();
          } catch (err) {
            if (signal.aborted) throw err;
            if (!started && firstToken.signal.aborted) throw new ChatBackendError("no first token in time");
            throw new ChatBackendError(`stream broken: ${(err as Error).message}`);
          }
          if (read.done) break;
          buffer += decoder.decode(read.value, { stream: true });
          let cut: number;
          while ((cut = buffer.indexOf("\n")) >= 0) {
            const line = buffer.slice(0, cut).replace(/\r$/, "");
            buffer = buffer.slice(cut + 1);
            if (!line.startsWith("data:")) continue; // comments, event names and blank separators
            const data = line.slice(5).trim();
            if (data === "[DONE]") {
              yield { kind: "end", finishReason, usage };
              return;
            }
            let chunk: CompletionChunk;
            try {
              chunk = JSON.parse(data) as CompletionChunk;
            } catch {
              throw new ChatBackendError("malformed stream chunk");
            }
            if (chunk.error) throw new ChatBackendError(`stream error: ${chunk.error.message ?? "unknown"}`);
            if (chunk.usage) usage = { promptTokens: chunk.usage.prompt_tokens ?? 0, completionTokens: chunk.usage.completion_tokens ?? 0 };
            const choice = chunk.choices?.[0];
            if (choice?.finish_reason) finishReason = choice.finish_reason;
            const text = choice?.delta?.content;
            if (text) {
              if (!started) {
                started = true;
                clearTimeout(timer);
              }
              yield { kind: "text", text };
            }
          }
        }
        // the connection ended without [DONE]: the stream was cut
        throw new ChatBackendError(started ? "stream cut before [DONE]" : "stream ended before any token");
      } finally {
        clearTimeout(timer);
        reader.releaseLock();
        if (!both.aborted) await res.body.cancel().catch(() => undefined);
      }
    },
  };
}
