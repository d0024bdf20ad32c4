import http from "node:http";
import https from "node:https";
import type { ChatBackendSetting } from "../../../config.ts";
import { ChatBackendError, type ChatBackend, type ChatChunk, type ChatRequest, type ChatUsage } from "./backend.ts";

interface CompletionChunk {
  choices?: { delta?: { content?: string | null }; finish_reason?: string | null }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: string };
}

/**
 * How long an idle kept-alive connection is kept: under the 5 s after which vLLM's uvicorn, llama-server and Node
 * servers close theirs. Node 20's agent ignores a server's `Keep-Alive: timeout` hint unless it has one of its own.
 */
const IDLE_CONNECTION_MS = 4_000;

/** The most of a refusal's body kept in the error (the console shows it). */
const ERROR_TEXT_CHARS = 200;

/**
 * The OpenAI chat completions API with `stream: true`, as vLLM, llama.cpp's llama-server, Ollama and hosted routers
 * serve it: server-sent `data:` lines of JSON chunks ending with `data: [DONE]`; `stream_options.include_usage` asks for
 * a last chunk carrying token usage (servers that ignore it simply send none). A server that sends no first token
 * within `firstTokenTimeoutMs` is given up on, so a slow back end fails over instead of holding the person up.
 *
 * Read with node:http over kept-alive connections rather than fetch: with 200 replies streaming at once, fetch's web
 * streams were a tenth of the API thread (docs/decisions/227).
 */
export function createOpenAiCompatibleBackend(setting: ChatBackendSetting, o: { firstTokenTimeoutMs: number }): ChatBackend {
  const target = new URL(`${setting.baseUrl.replace(/\/$/, "")}/chat/completions`);
  const transport = target.protocol === "https:" ? https : http;
  const agent = new transport.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS });
  return {
    name: setting.name,
    model: setting.model,
    contextTokens: setting.contextTokens,
    maxReplyTokens: setting.maxReplyTokens,
    async *stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ChatChunk> {
      const firstToken = new AbortController();
      const timer = setTimeout(() => firstToken.abort(), o.firstTokenTimeoutMs);
      const both = AbortSignal.any([signal, firstToken.signal]);
      const body = JSON.stringify({
        model: setting.model,
        messages: request.messages,
        stream: true,
        stream_options: { include_usage: true },
        max_tokens: Math.min(request.maxTokens, setting.maxReplyTokens),
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      });
      const send = (retry: boolean): Promise<http.IncomingMessage> =>
        new Promise((resolve, reject) => {
          const req = transport.request(target, {
            method: "POST",
            agent,
            signal: both,
            headers: {
              "Content-Type": "application/json",
              "Content-Length": Buffer.byteLength(body),
              Accept: "text/event-stream",
              ...(setting.apiKey ? { Authorization: `Bearer ${setting.apiKey}` } : {}),
            },
          });
          req.once("response", resolve);
          req.once("error", (err: NodeJS.ErrnoException) => {
            // a kept-alive connection the server closed just as it was reused never reached it: asked again, once,
            // on a fresh connection (the race Node's documentation of `reusedSocket` describes)
            if (req.reusedSocket && err.code === "ECONNRESET" && !retry && !both.aborted) resolve(send(true));
            else reject(err);
          });
          req.end(body);
        });
      let res: http.IncomingMessage;
      try {
        res = await send(false);
      } catch (err) {
        clearTimeout(timer);
        if (signal.aborted) throw err;
        throw new ChatBackendError(firstToken.signal.aborted ? "no first token in time" : `unreachable: ${(err as Error).message}`);
      }
      res.setEncoding("utf8");
      const status = res.statusCode ?? 0;
      if (status < 200 || status >= 300) {
        clearTimeout(timer);
        let text = "";
        try {
          for await (const piece of res) if ((text += piece as string).length >= ERROR_TEXT_CHARS) break;
        } catch {
          // the refusal's status is what matters; its body is a courtesy
        }
        res.destroy();
        throw new ChatBackendError(`HTTP ${status}: ${text.slice(0, ERROR_TEXT_CHARS)}`, status);
      }
      let buffer = "";
      let finishReason: string | null = null;
      let usage: ChatUsage | null = null;
      let started = false;
      let done = false;
      const pieces = res[Symbol.asyncIterator]();
      try {
        for (;;) {
          let read: IteratorResult<string>;
          try {
            read = (await pieces.next()) as IteratorResult<string>;
          } catch (err) {
            if (signal.aborted) throw err;
            if (!started && firstToken.signal.aborted) throw new ChatBackendError("no first token in time");
            throw new ChatBackendError(`stream broken: ${(err as Error).message}`);
          }
          if (read.done) break;
          buffer += read.value;
          let cut: number;
          while ((cut = buffer.indexOf("\n")) >= 0) {
            const line = buffer.slice(0, cut).replace(/\r$/, "");
            buffer = buffer.slice(cut + 1);
            if (!line.startsWith("data:")) continue; // comments, event names and blank separators
            const data = line.slice(5).trim();
            if (data === "[DONE]") {
              done = true;
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
        // after [DONE] the rest of the response is drained so the connection is kept for the next reply; a reply left
        // before it (stopped, refused, broken) closes its connection, which is how a server learns to stop generating
        if (!res.complete) {
          if (done) res.resume();
          else res.destroy();
        }
      }
    },
  };
}
