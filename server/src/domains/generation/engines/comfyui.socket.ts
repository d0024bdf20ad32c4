import WebSocket from "ws";
import type { ComfyServer } from "./comfyui.server.ts";

/** A text message of a ComfyUI server's socket (comfyui.md §3). */
export interface SocketMessage {
  type?: string;
  data: Record<string, unknown>;
}

/** Opens the server's socket unless one is open or opening: one per server and process, named by its client id. */
export function openSocket(s: ComfyServer<unknown>, onMessage: (m: SocketMessage) => void) {
  if (s.ws && s.ws.readyState <= WebSocket.OPEN) return;
  const ws = new WebSocket(`${s.url.replace(/^http/, "ws")}/ws?clientId=${s.clientId}`);
  s.ws = ws;
  s.heardAt = Date.now();
  ws.on("message", (data, isBinary) => {
    if (s.ws === ws) s.heardAt = Date.now();
    // binary frames are previews (comfyui.md §3): not ours to show
    if (isBinary) return;
    const m = parse(String(data));
    if (m) onMessage(m);
  });
  ws.on("error", () => undefined);
  // a dropped socket is re-opened by the next health round; /history covers what it missed meanwhile
  ws.on("close", () => s.ws === ws && (s.ws = undefined));
}

function parse(text: string): SocketMessage | undefined {
  try {
    const msg = JSON.parse(text) as { type?: string; data?: Record<string, unknown> };
    return { type: msg.type, data: msg.data ?? {} };
  } catch {
    return undefined;
  }
}

/**
 * A socket open but quiet while prompts of ours are on the server is re-opened (ComfyUI's socket can stop delivering
 * events after hours while staying open): a fresh one hears `status` at once, and the running node again (comfyui.md
 * §12). Meanwhile each health round reads the queue and those prompts' `/history/{id}`, so none waits on the socket.
 */
export function reopenIfQuiet(s: ComfyServer<{ posted: boolean }>, quietMs: number, onMessage: (m: SocketMessage) => void) {
  const waitingOnIt = [...s.inFlight].some((j) => j.posted) || s.ending.size > 0;
  if (!waitingOnIt || !s.ws || s.ws.readyState !== WebSocket.OPEN || Date.now() - s.heardAt < quietMs) return false;
  const quiet = s.ws;
  s.ws = undefined;
  quiet.terminate();
  openSocket(s, onMessage);
  return true;
}

/** queue_remaining of a status message (every client's prompts), if it says. */
export const queueRemaining = (m: SocketMessage) => (m.data.status as { exec_info?: { queue_remaining?: number } } | undefined)?.exec_info?.queue_remaining;
