// The client side of bench/chat.bench.ts, in its own process (forked with IPC): a fake OpenAI-compatible back end
// that notes when it writes each token, and the readers that note when each token arrives through Reverie. Keeping
// them out of the API's process leaves the API's event loop to the API. The readers use node:http, not fetch: on this
// 2-core machine 200 fetch readers (web streams) took CPU the API under test then lacked, as decision 200 found for
// the hardening bench's clients.
import http from "node:http";
import { startFakeOpenAi } from "../tests/fixtures/fake-openai.ts";

const TOKENS = 60;
const TOKENS_PER_SECOND = 30;
const REPLY_MS = (1000 * TOKENS) / TOKENS_PER_SECOND;
/** How long the 200 people keep talking in the sustained phase; the first REPLY_MS of it is their staggered start. */
const SUSTAINED_MS = 5 * REPLY_MS;
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
/** Replies whose tokens have begun to arrive and that have not ended. */
let streaming = 0;
let asked = 0;

/** One reply; for each token when the back end wrote it and its delay from that write to its arrival here. */
function reply(go: Go, who: Go["people"][number]): Promise<{ writtenAt: number; delay: number }[]> {
  return new Promise((resolve, reject) => {
    // with an idempotency key, as the app sends every message
    const body = JSON.stringify({ conversation_id: who.conversation, content: "hello", idempotency_key: `bench-${++asked}` });
    const req = http.request(
      `${go.url}/api/RoleChat/chat`,
      { method: "POST", agent, headers: { token: who.token, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) } },
      (res) => {
        res.setEncoding("utf8");
        if (res.statusCode !== 200) {
          let text = "";
          res.on("data", (d: string) => (text += d)).on("end", () => reject(new Error(`chat answered ${res.statusCode}: ${text}`)));
          return;
        }
        const tokens: { writtenAt: number; delay: number }[] = [];
        let buffer = "";
        res.on("data", (chunk: string) => {
          const at = now();
          buffer += chunk;
          let cut: number;
          while ((cut = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            if (!block.startsWith("event: token")) continue;
            const writtenAt = sent.get((JSON.parse(block.slice(block.indexOf("data: ") + 6)) as { t: string }).t.trim())!;
            if (!tokens.length) streaming++;
            tokens.push({ writtenAt, delay: at - writtenAt });
          }
        });
        res.on("end", () => {
          if (tokens.length) streaming--;
          if (tokens.length === TOKENS) resolve(tokens);
          else reject(new Error(`expected ${TOKENS} tokens, got ${tokens.length}`));
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const delays = (replies: { delay: number }[][]) => replies.flat().map((t) => t.delay);

process.on("message", (go: Go) => {
  void (async () => {
    await reply(go, go.people[0]);
    const first: number[] = [];
    for (let i = 0; i < 40; i++) first.push((await reply(go, go.people[1 + (i % 10)]))[0].delay);

    // everyone asks at the same moment: the accept path's worst case
    const burstStart = now();
    const burst = await Promise.all(go.people.map((p) => reply(go, p)));
    const burstMs = now() - burstStart;

    // everyone talks without pause for SUSTAINED_MS, starting at random moments of the first reply's length (as people
    // arrive), so about 200 replies stream at any moment while new ones are accepted at ~100/s; the tokens counted
    // are those written once everyone has started and before anyone stops
    const start = now();
    const from = start + REPLY_MS;
    const until = start + SUSTAINED_MS;
    const streamingNow: number[] = [];
    const sampler = setInterval(() => now() >= from && now() < until && streamingNow.push(streaming), 50);
    const talk = async (who: Go["people"][number]) => {
      await new Promise((r) => setTimeout(r, Math.random() * REPLY_MS));
      const replies = [];
      while (now() < until) replies.push(await reply(go, who));
      return replies;
    };
    const sustained = (await Promise.all(go.people.map(talk))).flat();
    clearInterval(sampler);
    const counted = sustained.map((r) => r.filter((t) => t.writtenAt >= from && t.writtenAt < until));
    process.send!({
      first,
      burst: { delays: delays(burst), replies: burst.length, wallMs: burstMs },
      sustained: { delays: delays(counted), replies: sustained.length, streaming: streamingNow, wallMs: now() - start },
    });
    await fake.close();
  })().catch((err: Error) => {
    process.send!({ error: `${err.message}${err.cause ? `: ${String((err.cause as Error).message ?? err.cause)}` : ""}` });
  });
});
process.send!({ backendUrl: fake.url });
