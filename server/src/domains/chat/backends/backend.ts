/** One message of a prompt, in the chat completions shape every OpenAI-compatible server accepts. */
export interface PromptMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface ChatRequest {
  messages: PromptMessage[];
  maxTokens: number;
  temperature?: number;
}

export interface ChatUsage {
  promptTokens: number;
  completionTokens: number;
}

/** What a back end streams: pieces of text, then one end with the finish reason and, when the server sends it, usage. */
export type ChatChunk = { kind: "text"; text: string } | { kind: "end"; finishReason: string | null; usage: ChatUsage | null };

/**
 * A model server that streams chat replies. `stream` throws ChatBackendError when the server refuses or fails;
 * a stream that ends without its end chunk was cut.
 */
export interface ChatBackend {
  readonly name: string;
  readonly model: string;
  /** The model's context size, in tokens. */
  readonly contextTokens: number;
  readonly maxReplyTokens: number;
  stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ChatChunk>;
}

export class ChatBackendError extends Error {
  constructor(
    message: string,
    /** The HTTP status the server answered, when it answered. */
    readonly httpStatus?: number,
  ) {
    super(message);
  }
}
