import { api, readEvents, requestHeaders, withTimestamp, type ApiData } from "../../lib/api-client.ts";
import type { MessageEventChange } from "../../../../server/src/contract/messages.ts";

/** A thread as its side sees it, and a message (issue 32 item 6, docs/decisions/310). */
export type ThreadView = ApiData<"/api/Messages/threads", "get">["list"][number];
export type MessageView = ApiData<"/api/Messages/thread", "get">["messages"][number];
export type Side = ThreadView["as"];
/** A creator's message to all members, as they see it afterwards. */
export type MassSentView = ApiData<"/api/Messages/massSent", "get">["list"][number];

/** What a `message` event of the account's stream says (docs/decisions/311). */
export interface MessageEvent {
  thread_id: number;
  message_id: number;
  change: MessageEventChange;
  unread: number | null;
}

/** One key per tap: a double tap or a retried request is one message. */
export const tapKey = () => `msg-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;

export const messagesApi = {
  threads: (as: Side) => api.get("/api/Messages/threads", { query: { as }, quiet: true }),
  thread: (id: number) => api.get("/api/Messages/thread", { query: { id }, quiet: true }),
  send: (body: { thread_id?: number; home_link?: string; body: string; library_item_id?: number; price?: number }) =>
    api.post("/api/Messages/send", { ...body, idempotency_key: tapKey() }, { quiet: true }),
  massSend: (body: { body: string; library_item_id?: number; price?: number }) =>
    api.post("/api/Messages/massSend", { ...body, idempotency_key: tapKey() }, { quiet: true }),
  massSent: (limit: number) => api.get("/api/Messages/massSent", { query: { limit }, quiet: true }),
  read: (thread_id: number) => api.post("/api/Messages/read", { thread_id }, { quiet: true }),
  block: (thread_id: number, blocked: boolean) => api.post("/api/Messages/block", { thread_id, blocked: blocked ? 1 : 0 }, { quiet: true }),
  unlock: (message_id: number) => api.post("/api/Messages/unlock", { message_id }, { quiet: true }),
  /** Sets the media pass cookie a <video> element sends with a message's file. */
  mediaPass: () => api.post("/api/Messages/mediaPass", {}, { quiet: true }),
};

/**
 * The account's events on the one event stream (GET /api/Generation/progress without a task): calls `onMessage` for
 * each `message` event until `signal` aborts or the stream ends. Read with fetch, since EventSource cannot send the
 * token header.
 */
export async function followMessages(onMessage: (e: MessageEvent) => void, signal: AbortSignal): Promise<void> {
  const res = await fetch(withTimestamp("/api/Generation/progress", {}), {
    headers: { ...requestHeaders(), Accept: "text/event-stream" },
    signal,
    cache: "no-store",
  });
  if (!res.ok || !res.body) return;
  await readEvents(res.body, (event, data) => {
    if (event !== "message") return;
    try {
      onMessage(JSON.parse(data) as MessageEvent);
    } catch {
      // a malformed event is skipped: the next refresh reads the thread whole
    }
  });
}

/** A message's file as an object URL: its signed URL also needs the viewer's token, which an <img> cannot send. */
export async function messageMedia(url: string, signal?: AbortSignal): Promise<string | null> {
  const res = await fetch(url, { headers: requestHeaders(), cache: "no-store", credentials: "same-origin", signal });
  return res.ok ? URL.createObjectURL(await res.blob()) : null;
}
