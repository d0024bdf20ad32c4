import type { TestApp } from "./db-utils.ts";
import type { FakeOpenAi } from "./fixtures/fake-openai.ts";

export interface ChatEvent {
  event: string;
  data: any;
  /** ms since the request was sent */
  at: number;
}

/** CHAT_BACKENDS for fake servers, in failover order. */
export function chatBackendsEnv(fakes: FakeOpenAi[], o: { contextTokens?: number; maxReplyTokens?: number; tools?: boolean } = {}): string {
  return JSON.stringify(fakes.map((f, i) => ({ name: `fake${i + 1}`, baseUrl: f.url, apiKey: "sk-test", model: "fake-model", ...o })));
}

/**
 * POSTs to a streaming chat call and reads its Server-Sent Events until the stream ends (or `stopAfter` says so, then
 * the connection is dropped as a closed tab would). A JSON answer (an error before streaming) comes back as `json`.
 */
export async function chatCall(
  baseUrl: string,
  path: string,
  token: string,
  body: object,
  stopAfter?: (events: ChatEvent[]) => boolean,
): Promise<{ status: number; events: ChatEvent[]; json?: any }> {
  const controller = new AbortController();
  const t0 = performance.now();
  const res = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: { token, "Content-Type": "application/json" },
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  if (!res.headers.get("content-type")?.includes("text/event-stream")) return { status: res.status, events: [], json: await res.json() };
  return { status: res.status, events: await readEvents(res, controller, t0, stopAfter) };
}

export async function readEvents(res: Response, controller: AbortController, t0: number, stopAfter?: (events: ChatEvent[]) => boolean): Promise<ChatEvent[]> {
  const events: ChatEvent[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data) events.push({ event, data: JSON.parse(data), at: performance.now() - t0 });
      }
      if (stopAfter?.(events)) {
        controller.abort();
        break;
      }
    }
  } catch (err) {
    if (!controller.signal.aborted) throw err;
  }
  return events;
}

/** The text of a reply's token events. */
export const streamedText = (events: ChatEvent[]) =>
  events
    .filter((e) => e.event === "token")
    .map((e) => e.data.t as string)
    .join("");

/** A new character of the user's (an adult archivist) and a conversation with it; answers the conversation. */
export async function newConversation(t: Pick<TestApp, "http">, token: string): Promise<{ id: number }> {
  const c = (
    await t.http
      .post("/api/RoleChat/creatCharacter")
      .set("token", token)
      .send({ name: "Ada", description: "An adult archivist", greeting: "Hello." })
      .expect(200)
  ).body.data;
  return (await t.http.post("/api/RoleChat/creatConversation").set("token", token).send({ character_id: c.id }).expect(200)).body.data;
}
