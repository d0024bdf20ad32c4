// The client side of bench/chat.bench.ts, in its own process (forked with IPC): a fake OpenAI-compatible back end
// that notes when it writes each token, and the readers that note when each token arrives through Reverie. Keeping
// them out of the API's process leaves the API's event loop to the API.
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

/** One reply; the delay of each token from the back end's write to its arrival here. */
async function reply(go: Go, who: Go["people"][number]): Promise<number[]> {
  const res = await fetch(`${go.url}/api/RoleChat/chat`, { method: "POST", headers: { token: who.token, "Content-Type": "application/json" }, body: JSON.stringify({ conversation_id: who.conversation, content: "hello" }) });
  if (!res.ok || !res.body) throw new Error(`chat answered ${res.status}: ${await res.text()}`);
  const delays: number[] = [];
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const at = now();
    buffer += decoder.decode(value, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      if (!block.startsWith("event: token")) continue;
      const token = (JSON.parse(block.slice(block.indexOf("data: ") + 6)) as { t: string }).t.trim();
      delays.push(at - sent.get(token)!);
    }
  }
  if (delays.length !== TOKENS) throw new Error(`expected ${TOKENS} tokens, got ${delays.length}`);
  return delays;
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
