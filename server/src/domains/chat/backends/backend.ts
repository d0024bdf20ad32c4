/** One message of a prompt, in the chat completions shape every OpenAI-compatible server accepts. */
export interface PromptMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** A function the model may call instead of (or besides) writing text: OpenAI's `tools` entry of type "function". */
export interface ChatTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments */
  parameters: object;
}

export interface ChatRequest {
  messages: PromptMessage[];
  maxTokens: number;
  temperature?: number;
  /** Offered to back ends set up for tool calls (`tools` in CHAT_BACKENDS); the others never see them. */
  tools?: ChatTool[];
}

export interface ChatUsage {
  promptTokens: number;
  completionTokens: number;
}

/**
 * What a back end streams: pieces of text, each tool call once whole (its name and its arguments' JSON text, as
 * streamed in pieces), then one end with the finish reason and, when the server sends it, usage.
 */
export type ChatChunk =
  | { kind: "text"; text: string }
  | { kind: "tool"; name: string; arguments: string }
  | { kind: "end"; finishReason: string | null; usage: ChatUsage | null };

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
  /** Set up for tool calls (`tools` in CHAT_BACKENDS): requests carrying tools send them to this one. */
  readonly tools: boolean;
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
