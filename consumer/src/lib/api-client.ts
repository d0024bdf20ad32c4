import type { paths } from "../../../server/src/contract/api.gen.d.ts";
import type { BanNotice } from "../../../server/src/contract/refusals.ts";
import { attributionHeaders } from "../features/attribution/attribution.ts";
import { clearStoredSession, storage } from "./storage.ts";

/**
 * The one HTTP client of the consumer app (SPEC.md §7/§8, ARCHITECTURE.md §3). Every call carries the login
 * token, the attribution headers, no-cache headers and a `t` timestamp; answers are `{code,msg,data}` envelopes
 * and anything but code 200 is an error, mapped to the SPEC.md §8 messages. Messages stay in English here; the
 * UI translates them (i18n translateMessage) when it shows them.
 */

export const REQUEST_TIMEOUT_MS = 50_000;

export const CLIENT_MESSAGES = {
  loggedOut: "You have been logged out. Please log in again",
  forbidden: "There is no permission for the current operation",
  notFound: "The access resource does not exist",
  unknown: "An unknown error in the system. Please report it to the administrator",
  tooManyRequests: "Too many requests",
  timeout: "Network timeout",
  connection: "Network connection error",
  pathNotFound: "The interface path cannot be found",
} as const;

export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown = null,
    /** 'Too many requests' is never shown to the user (SPEC.md §8). */
    readonly silent = false,
  ) {
    super(message);
  }
}

type Query = Record<string, string | number | boolean | undefined | null>;

type Method = "get" | "post";
/** The API paths that answer `method`. */
export type ApiPath<M extends Method> = { [P in keyof paths]: paths[P][M] extends { responses: object } ? P : never }[keyof paths];
/**
 * What `method path` answers, the envelope's `data`, as the server declares it: the types are generated from its
 * OpenAPI document (docs/decisions/229), so a server change that the app does not fit fails the type check.
 */
export type ApiData<P extends ApiPath<M>, M extends Method> = paths[P][M] extends { responses: { 200: { content: { "application/json": { data: infer D } } } } }
  ? D
  : never;
/** The JSON of each event of a route answered with Server-Sent Events. */
export type ApiEvent<P extends ApiPath<M>, M extends Method> = paths[P][M] extends { responses: { 200: { content: { "text/event-stream": infer E } } } }
  ? E
  : never;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** The caller shows the error itself (inline form errors, background content that may be absent). */
  quiet?: boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** extra headers a provider asks for (PayPal's client metadata id) */
  headers?: Record<string, string>;
}

type ErrorListener = (error: ApiError) => void;
let errorListener: ErrorListener = () => {};

/** The UI registers where errors are shown (the global snackbar). */
export function onApiError(listener: ErrorListener): void {
  errorListener = listener;
}

export function withTimestamp(path: string, query: Query = {}): string {
  const url = new URL(path, window.location.origin);
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined && v !== null && v !== "") url.searchParams.set(k, String(v));
  }
  url.searchParams.set("t", String(Date.now()));
  return url.pathname + url.search;
}

export function requestHeaders(): Record<string, string> {
  const headers: Record<string, string> = {
    ...attributionHeaders(),
    "Cache-Control": "no-cache",
    Pragma: "no-cache",
  };
  const token = storage.get("token");
  if (token) headers.token = token;
  return headers;
}

/** SPEC.md §8: 401 ends the session; on /function the user goes home, anywhere else the page reloads. */
function endSession(): void {
  clearStoredSession();
  if (window.location.pathname === "/function") window.location.assign("/home");
  else window.location.reload();
}

export interface StoredBanNotice extends BanNotice {
  /** the account's uuid, so an appeal can name it after the login is gone */
  account: string | null;
}

function isBanNotice(data: unknown): data is BanNotice {
  return typeof data === "object" && data !== null && (data as { reason?: unknown }).reason === "banned";
}

/**
 * A banned account's 403 ends the session like a 401, but keeps what the server said (the reason staff gave) for
 * the ban notice the next page shows, instead of a silent logout.
 */
function endBannedSession(notice: BanNotice): void {
  storage.setJson("ban_notice", { ...notice, account: storage.get("uuid") } satisfies StoredBanNotice);
  clearStoredSession();
  if (window.location.pathname === "/home") window.location.reload();
  else window.location.assign("/home");
}

function mapEnvelopeError(status: number, envelope: Partial<Envelope<unknown>> | null, statusText: string): ApiError {
  const code = typeof envelope?.code === "number" && envelope.code !== 200 ? envelope.code : status;
  const serverMsg = typeof envelope?.msg === "string" && envelope.msg ? envelope.msg : "";
  const data = envelope?.data ?? null;
  if (code === 401) return new ApiError(401, CLIENT_MESSAGES.loggedOut, data);
  if (code === 403) return new ApiError(403, serverMsg && serverMsg !== CLIENT_MESSAGES.forbidden ? serverMsg : CLIENT_MESSAGES.forbidden, data);
  if (code === 404) return new ApiError(404, envelope ? CLIENT_MESSAGES.notFound : CLIENT_MESSAGES.pathNotFound, data);
  if (serverMsg === CLIENT_MESSAGES.tooManyRequests || code === 429)
    return new ApiError(code, serverMsg || CLIENT_MESSAGES.tooManyRequests, data, serverMsg === CLIENT_MESSAGES.tooManyRequests || !serverMsg);
  if (serverMsg) return new ApiError(code, serverMsg, data);
  if (!envelope && statusText) return new ApiError(code, statusText, data);
  return new ApiError(code, CLIENT_MESSAGES.unknown, data);
}

/** A call that got no answer of its own: the network failed, it timed out, or the server broke (5xx). */
export function failedWithoutAnswer(error: unknown): boolean {
  return error instanceof ApiError && (error.code === 0 || error.code >= 500);
}

function raise(error: ApiError, quiet: boolean | undefined): never {
  if (error.code === 401) endSession();
  else if (error.code === 403 && isBanNotice(error.data)) endBannedSession(error.data);
  if (!quiet && !error.silent) errorListener(error);
  throw error;
}

async function send<T>(method: string, path: string, init: RequestInit & { headers: Record<string, string> }, opts: RequestOptions): Promise<T> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), opts.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout.signal]) : timeout.signal;
  let res: Response;
  try {
    res = await fetch(withTimestamp(path, opts.query), { ...init, method, signal, cache: "no-store", credentials: "same-origin" });
  } catch (err) {
    clearTimeout(timer);
    if (opts.signal?.aborted) throw err;
    const message = timeout.signal.aborted ? CLIENT_MESSAGES.timeout : CLIENT_MESSAGES.connection;
    return raise(new ApiError(0, message), opts.quiet);
  }
  let envelope: Partial<Envelope<T>> | null = null;
  try {
    const text = await res.text();
    envelope = text ? (JSON.parse(text) as Partial<Envelope<T>>) : null;
  } catch {
    envelope = null;
  } finally {
    clearTimeout(timer);
  }
  // 301/302 are followed by fetch itself and never reach here as errors (SPEC.md §8)
  if (res.ok && envelope && envelope.code === 200) return envelope.data as T;
  return raise(mapEnvelopeError(res.status, envelope && typeof envelope === "object" ? envelope : null, res.statusText), opts.quiet);
}

/**
 * Reads a `text/event-stream` body (EventSource cannot send the `token` header, so streams are fetched) and hands each
 * event's name (`message` when it has none) and `data:` text to `onEvent` as it arrives; resolves when the stream ends.
 * Comments (the server's keep-alives) and events without data are skipped.
 */
export async function readEvents(body: NonNullable<Response["body"]>, onEvent: (event: string, data: string) => void): Promise<void> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = "message";
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) event = line.slice(6).trimStart();
        else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
      }
      if (data.length) onEvent(event, data.join("\n"));
    }
  }
}

export const api = {
  get<P extends ApiPath<"get">>(path: P, opts: RequestOptions = {}): Promise<ApiData<P, "get">> {
    return send("GET", path, { headers: { ...requestHeaders(), ...opts.headers } }, opts);
  },
  post<P extends ApiPath<"post">>(path: P, body?: unknown, opts: RequestOptions = {}): Promise<ApiData<P, "post">> {
    const headers = { ...requestHeaders(), ...opts.headers, "Content-Type": "application/json" };
    return send("POST", path, { headers, body: JSON.stringify(body ?? {}) }, opts);
  },
  /**
   * A POST answered with Server-Sent Events (chat replies): each `event:`/`data:` block goes to `onEvent` as it
   * arrives. An answer that is not a stream is an envelope error and is raised like any other call's.
   */
  async stream<P extends ApiPath<"post">>(
    path: P,
    body: unknown,
    onEvent: (event: string, data: ApiEvent<P, "post">) => void,
    opts: Omit<RequestOptions, "body" | "query" | "timeoutMs"> = {},
  ): Promise<void> {
    let res: Response;
    try {
      res = await fetch(withTimestamp(path), {
        method: "POST",
        headers: { ...requestHeaders(), ...opts.headers, "Content-Type": "application/json", Accept: "text/event-stream" },
        body: JSON.stringify(body ?? {}),
        signal: opts.signal,
        cache: "no-store",
        credentials: "same-origin",
      });
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      return raise(new ApiError(0, CLIENT_MESSAGES.connection), opts.quiet);
    }
    if (!res.headers.get("content-type")?.includes("text/event-stream") || !res.body) {
      let envelope: Partial<Envelope<unknown>> | null = null;
      try {
        envelope = (await res.json()) as Partial<Envelope<unknown>>;
      } catch {
        envelope = null;
      }
      return raise(mapEnvelopeError(res.status, envelope, res.statusText), opts.quiet);
    }
    return readEvents(res.body, (event, data) => onEvent(event, JSON.parse(data) as ApiEvent<P, "post">));
  },
  /** Multipart upload; the browser sets the boundary. */
  upload<P extends ApiPath<"post">>(path: P, form: FormData, opts: RequestOptions = {}): Promise<ApiData<P, "post">> {
    return send("POST", path, { headers: requestHeaders(), body: form }, opts);
  },
};
