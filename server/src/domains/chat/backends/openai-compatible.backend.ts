import http from "node:http";
import https from "node:https";
import type { ChatBackendSetting } from "../../../config.ts";
import { ChatBackendError, type ChatBackend, type ChatChunk, type ChatRequest, type ChatUsage } from "./backend.ts";

/** A piece of a tool call as OpenAI streams it: the first names it (id, function name), the next add to its arguments. */
interface ToolCallDelta {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

interface CompletionChunk {
  choices?: { delta?: { content?: string | null; tool_calls?: ToolCallDelta[] | null }; finish_reason?: string | null }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: string };
}

/**
 * How long an idle kept-alive connection is kept: under the 5 s after which vLLM's uvicorn, llama-server and Node
 * servers close theirs. Node 20's agent ignores a server's `Keep-Alive: timeout` hint unless it has one of its own.
 */
const IDLE_CONNECTION_MS = 4_000;

/**
 * How long a back end set up for tool calls that refused a request carrying them (a 400: vLLM without
 * `--enable-auto-tool-choice`, llama-server without `--jinja`, an Ollama model without tool support) is asked without
 * them, before they are tried again (the server may have been restarted with them).
 */
const TOOLS_REFUSED_MS = 10 * 60_000;

/** The most of a refusal's body kept in the error (the console shows it). */
const ERROR_TEXT_CHARS = 200;

/** Reading state of one reply's stream: what the last chunks said, and whether text or the end came. */
interface StreamState {
  finishReason: string | null;
  usage: ChatUsage | null;
  started: boolean;
  /** `[DONE]` came: the connection can be kept for the next reply. */
  done: boolean;
  /** The tool calls streamed so far, by their index: the name, and the arguments' text as its pieces came. */
  tools: Map<number, { name: string; arguments: string }>;
}

/** Gives up on a server that sends no first token within `ms`: `signal` aborts the request, `passed` says why. */
function firstTokenDeadline(ms: number) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  return {
    signal: controller.signal,
    get passed() {
      return controller.signal.aborted;
    },
    clear: () => clearTimeout(timer),
  };
}
type Deadline = ReturnType<typeof firstTokenDeadline>;

/** A refused request's error: its status, with the start of its body (the console shows it). */
async function refusal(res: http.IncomingMessage, status: number): Promise<ChatBackendError> {
  let text = "";
  try {
    for await (const piece of res) if ((text += piece as string).length >= ERROR_TEXT_CHARS) break;
  } catch {
    // the refusal's status is what matters; its body is a courtesy
  }
  res.destroy();
  return new ChatBackendError(`HTTP ${status}: ${text.slice(0, ERROR_TEXT_CHARS)}`, status);
}

/** The next piece of the response, or the ChatBackendError its failure is (an abort by the caller is thrown as it is). */
async function nextPiece(pieces: AsyncIterator<unknown>, signal: AbortSignal, deadline: Deadline, s: StreamState): Promise<IteratorResult<string>> {
  try {
    return (await pieces.next()) as IteratorResult<string>;
  } catch (err) {
    if (signal.aborted) throw err;
    if (!s.started && deadline.passed) throw new ChatBackendError("no first token in time");
    throw new ChatBackendError(`stream broken: ${(err as Error).message}`);
  }
}

/**
 * One line of the event stream: a text chunk, the end (`[DONE]`), or null for a line that carries neither (the usage
 * and finish reason it carries are kept in `s` for the end).
 */
function chunkOfLine(line: string, s: StreamState): ChatChunk | null {
  if (!line.startsWith("data:")) return null; // comments, event names and blank separators
  const data = line.slice(5).trim();
  if (data === "[DONE]") return { kind: "end", finishReason: s.finishReason, usage: s.usage };
  let chunk: CompletionChunk;
  try {
    chunk = JSON.parse(data) as CompletionChunk;
  } catch {
    throw new ChatBackendError("malformed stream chunk");
  }
  if (chunk.error) throw new ChatBackendError(`stream error: ${chunk.error.message ?? "unknown"}`);
  if (chunk.usage) s.usage = { promptTokens: chunk.usage.prompt_tokens ?? 0, completionTokens: chunk.usage.completion_tokens ?? 0 };
  const choice = chunk.choices?.[0];
  if (choice?.finish_reason) s.finishReason = choice.finish_reason;
  for (const call of choice?.delta?.tool_calls ?? []) {
    const index = call.index ?? 0;
    const known = s.tools.get(index) ?? { name: "", arguments: "" };
    known.name += call.function?.name ?? "";
    known.arguments += call.function?.arguments ?? "";
    s.tools.set(index, known);
  }
  const text = choice?.delta?.content;
  return text ? { kind: "text", text } : null;
}

/** A server's chat completions endpoint, with the kept-alive connections to it. */
interface Endpoint {
  setting: ChatBackendSetting;
  target: URL;
  transport: typeof http | typeof https;
  agent: http.Agent;
  /** When it last refused a request carrying tools (see TOOLS_REFUSED_MS). */
  toolsRefusedAt: number;
}

/** The request's tools, where this back end is set up for them and has not just refused them; else none. */
function toolsFor(e: Endpoint, request: ChatRequest) {
  if (!request.tools?.length || !e.setting.tools || Date.now() - e.toolsRefusedAt < TOOLS_REFUSED_MS) return undefined;
  return request.tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } }));
}

function bodyOf(setting: ChatBackendSetting, request: ChatRequest, tools: ReturnType<typeof toolsFor>): string {
  return JSON.stringify({
    model: setting.model,
    messages: request.messages,
    stream: true,
    stream_options: { include_usage: true },
    max_tokens: Math.min(request.maxTokens, setting.maxReplyTokens),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(tools ? { tools, tool_choice: "auto" } : {}),
  });
}

function post(e: Endpoint, body: string, signal: AbortSignal, retry = false): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = e.transport.request(e.target, {
      method: "POST",
      agent: e.agent,
      signal,
      headers: {
        "Content-Type": "application/json",
        "Content-Length": Buffer.byteLength(body),
        Accept: "text/event-stream",
        ...(e.setting.apiKey ? { Authorization: `Bearer ${e.setting.apiKey}` } : {}),
      },
    });
    req.once("response", resolve);
    req.once("error", (err: NodeJS.ErrnoException) => {
      // a kept-alive connection the server closed just as it was reused never reached it: asked again, once,
      // on a fresh connection (the race Node's documentation of `reusedSocket` describes)
      if (req.reusedSocket && err.code === "ECONNRESET" && !retry && !signal.aborted) resolve(post(e, body, signal, true));
      else reject(err);
    });
    req.end(body);
  });
}

/** The server's accepting response, or the ChatBackendError its failure or refusal is (a stop is thrown as it is). */
async function answer(e: Endpoint, request: ChatRequest, signal: AbortSignal, deadline: Deadline): Promise<http.IncomingMessage> {
  const tools = toolsFor(e, request);
  let res: http.IncomingMessage;
  try {
    res = await post(e, bodyOf(e.setting, request, tools), AbortSignal.any([signal, deadline.signal]));
  } catch (err) {
    deadline.clear();
    if (signal.aborted) throw err;
    throw new ChatBackendError(deadline.passed ? "no first token in time" : `unreachable: ${(err as Error).message}`);
  }
  res.setEncoding("utf8");
  const status = res.statusCode ?? 0;
  if (status === 400 && tools) {
    // a server that cannot take tools refuses the whole request: the reply is asked again without them, and the
    // character simply makes no offers from this back end for a while
    await refusal(res, status);
    e.toolsRefusedAt = Date.now();
    return answer(e, request, signal, deadline);
  }
  if (status < 200 || status >= 300) {
    deadline.clear();
    throw await refusal(res, status);
  }
  return res;
}

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
  const endpoint: Endpoint = {
    setting,
    target,
    transport,
    agent: new transport.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
    toolsRefusedAt: Number.NEGATIVE_INFINITY,
  };
  return {
    name: setting.name,
    tools: setting.tools,
    model: setting.model,
    contextTokens: setting.contextTokens,
    maxReplyTokens: setting.maxReplyTokens,
    async *stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ChatChunk> {
      const deadline = firstTokenDeadline(o.firstTokenTimeoutMs);
      const res = await answer(endpoint, request, signal, deadline);
      const s: StreamState = { finishReason: null, usage: null, started: false, done: false, tools: new Map() };
      const pieces = res[Symbol.asyncIterator]();
      let buffer = "";
      try {
        for (;;) {
          const read = await nextPiece(pieces, signal, deadline, s);
          if (read.done) break;
          buffer += read.value;
          let cut: number;
          while ((cut = buffer.indexOf("\n")) >= 0) {
            const chunk = chunkOfLine(buffer.slice(0, cut).replace(/\r$/, ""), s);
            buffer = buffer.slice(cut + 1);
            if (chunk?.kind === "end") {
              s.done = true;
              // each tool call once whole, in the order the server numbered them; a call without a name is nothing
              for (const [, call] of [...s.tools].sort(([a], [b]) => a - b)) if (call.name) yield { kind: "tool", ...call };
              yield chunk;
              return;
            }
            // a tool call's first piece is the model answering, as a first token is
            if (!s.started && (chunk || s.tools.size)) {
              s.started = true;
              deadline.clear();
            }
            if (chunk) yield chunk;
          }
        }
        // the connection ended without [DONE]: the stream was cut
        throw new ChatBackendError(s.started ? "stream cut before [DONE]" : "stream ended before any token");
      } finally {
        deadline.clear();
        // after [DONE] the rest of the response is drained so the connection is kept for the next reply; a reply left
        // before it (stopped, refused, broken) closes its connection, which is how a server learns to stop generating
        if (!res.complete) {
          if (s.done) res.resume();
          else res.destroy();
        }
      }
    },
  };
}
