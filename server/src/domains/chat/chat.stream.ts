import type { Response } from "express";
import type { ChatStreamEvent } from "../../contract/chat.ts";
import { openEventStream } from "../../http/sse.ts";
import type { ReplyEvent } from "./chat.service.ts";

const HEARTBEAT_MS = 15_000;

/**
 * Writes a reply as Server-Sent Events: `start` (the stored message and reply rows), `token` per piece of text,
 * `refused` when the policy stopped it, and `end` with the stored reply. The reply goes on being written and stored
 * when the browser goes away; only the listening stops. `start` is the first event's data, written with the head.
 */
export function openStream(res: Response, start?: unknown) {
  // one head for every event stream, counted among those a stop ends with a reconnect event (http/sse.ts)
  openEventStream(res);
  // Nagle's algorithm would hold small token writes back by up to 40 ms
  res.socket?.setNoDelay(true);
  const controller = new AbortController();
  const heartbeat = setInterval(() => res.write(": keep-alive\n\n"), HEARTBEAT_MS);
  res.on("close", () => {
    clearInterval(heartbeat);
    controller.abort();
  });
  const write = (event: ChatStreamEvent, data: unknown) => {
    if (!res.writableEnded) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  // the head leaves with the first event when there is one (one write for both; 200 replies start at once in a busy
  // minute); a follower may wait for its first piece, so its head is sent alone at once
  if (start === undefined) res.flushHeaders();
  else write("start", start);
  return {
    signal: controller.signal,
    send: (e: ReplyEvent) => {
      if (e.type === "token") write("token", { t: e.text });
      else if (e.type === "refused") write("refused", { msg: e.msg });
      else if (e.type === "progress") write("progress", { id: e.id, state: e.state, progress: e.progress });
      else write("end", { reply: e.reply });
    },
    end: () => {
      clearInterval(heartbeat);
      if (!res.writableEnded) res.end();
    },
  };
}
