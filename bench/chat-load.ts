// The client side of bench/chat.bench.ts, in its own process (forked with IPC): a fake OpenAI-compatible back end
// that notes when it writes each token, and the readers that note when each token arrives through Reverie. Keeping
// them out of the API's process leaves the API's event loop to the API. The readers use node:http, not fetch: on this
// 2-core machine 200 fetch readers (web streams) took CPU the API under test then lacked, as decision 200 found for
// the hardening bench's clients.
import http from "node:http";
import { startFakeOpenAi } from "../tests/fixtures/fake-openai.ts";

const TOKENS = 60;
const TOKENS_PER_SECOND = 30;
const sent = new Map<string, number>();
const now = () => performance.now();
let streamNo = 0;
const fake = await startFakeOpenAi({ onToken: (t) => sent.set(t.trim(), now()) });
fake.setRespond(() => {
  const n = streamNo++;
  return { kind: "stream", text: Array.from({ length: TOKENS }, (_, i) => `s${n}t${i}`).join(" "), tokenDelayMs: 1000 / TOKENS_PER_SECOND };
});

interface Go {
  url: string;
  people: { token: string; conversation: number }[];
}

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

/** One reply; the delay of each token from the back end's write to its arrival here. */
function reply(go: Go, who: Go["people"][number]): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ conversation_id: who.conversation, content: "hello" });
    const req = http.request(`${go.url}/api/RoleChat/chat`, { method: "POST", agent, headers: { token: who.token, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) } }, (res) => {
      res.setEncoding("utf8");
      if (res.statusCode !== 200) {
        let text = "";
        res.on("data", (d: string) => (text += d)).on("end", () => reject(new Error(`chat answered ${res.statusCode}: ${text}`)));
        return;
      }
      const delays: number[] = [];
      let buffer = "";
      res.on("data", (chunk: string) => {
        const at = now();
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          if (!block.startsWith("event: token")) continue;
          const token = (JSON.parse(block.slice(block.indexOf("data: ") + 6)) as { t: string }).t.trim();
          delays.push(at - sent.get(token)!);
        }
      });
      res.on("end", () => (delays.length === TOKENS ? resolve(delays) : reject(new Error(`expected ${TOKENS} tokens, got ${delays.length}`))));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

process.on("message", (go: Go) => {
  void (async () => {
    await reply(go, go.people[0]);
    const first: number[] = [];
    for (let i = 0; i < 40; i++) first.push((await reply(go, go.people[1 + (i % 10)]))[0]);
    const t0 = now();
    const all = await Promise.all(go.people.map((p) => reply(go, p)));
    process.send!({ first, delays: all.flat(), streams: all.length, wallMs: now() - t0 });
    await fake.close();
  })().catch((err: Error) => {
    process.send!({ error: `${err.message}${err.cause ? `: ${String((err.cause as Error).message ?? err.cause)}` : ""}` });
  });
});
process.send!({ backendUrl: fake.url });
