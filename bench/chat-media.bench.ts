import fs from "node:fs/promises";
import http, { type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import sharp from "sharp";
import { createApp } from "../server/src/app.ts";
import { parseConfig } from "../server/src/config.ts";
import { openDatabase } from "../server/src/db/database.ts";
import { startGenerationWorker } from "../server/src/worker/generation.worker.ts";
import { startFakeOpenAi } from "../tests/fixtures/fake-openai.ts";
import { freePort } from "../tests/net-utils.ts";
import type { BenchResult } from "./run.ts";

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.max(0, Math.ceil((p / 100) * xs.length) - 1))];
const median = (xs: number[]) => percentile(xs, 50);
const now = () => performance.now();

/** People talking at once in the reply-delay phases, each reply 40 tokens at 30 tokens/s, as in bench/chat.bench.ts. */
const TALKERS = 20;
const TOKENS = 40;
const TOKENS_PER_SECOND = 30;
/** Each phase's length; the phases alternate (no pictures, pictures) so the machine's load drifts into both alike. */
const PHASE_MS = 8_000;
const ROUNDS = 2;
const PICTURES = 5;

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

/** One request through node:http (fetch's web streams cost the API's process CPU here, decision 200), its body as text. */
function call(url: string, o: { method?: string; token?: string; body?: object | Buffer; type?: string } = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const body = o.body === undefined ? undefined : Buffer.isBuffer(o.body) ? o.body : Buffer.from(JSON.stringify(o.body));
    const req = http.request(
      url,
      {
        method: o.method ?? (body ? "POST" : "GET"),
        agent,
        headers: {
          ...(o.token ? { token: o.token } : {}),
          ...(body ? { "Content-Type": o.type ?? "application/json", "Content-Length": body.length } : {}),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (text += d)).on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** The `data:` of each event of an event-stream text, by event name. */
const eventsOf = (text: string) =>
  text
    .split("\n\n")
    .map((block) => ({ event: /^event: (.*)$/m.exec(block)?.[1], data: /^data: (.*)$/m.exec(block)?.[1] }))
    .filter((e): e is { event: string; data: string } => !!e.event && !!e.data);

/**
 * Issue 50's measure: a character's picture from the request to being shown in the conversation, on the local engine
 * (target ≤ 5 s), and the reply streams of other people while pictures render beside them (per-token delay p99 within
 * 10 % of the same streams without pictures). One process holds the API, the worker (as `npm run worker` would, with its
 * own pool), the fake chat back end and the readers; that is the same for both conditions, so their difference is the
 * pictures' cost to streaming.
 */
export default async function chatMediaBench(): Promise<BenchResult[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-bench-chat-media-"));
  const written = new Map<string, number>();
  let replyNo = 0;
  const fake = await startFakeOpenAi({ onToken: (t) => written.set(t.trim(), now()) });
  fake.setRespond(() => {
    const n = replyNo++;
    return { kind: "stream", text: Array.from({ length: TOKENS }, (_, i) => `r${n}t${i}`).join(" "), tokenDelayMs: 1000 / TOKENS_PER_SECOND };
  });
  const config = parseConfig({
    DATA_DIR: dir,
    EMBEDDED_PG_PORT: String(await freePort()),
    DB_POOL_SIZE: "20",
    LOG_LEVEL: "silent",
    CHAT_BACKENDS: JSON.stringify([{ name: "fake", baseUrl: fake.url, model: "fake-model" }]),
    CHAT_FREE_MESSAGES: "0",
    FREE_GENERATIONS: "0",
    RATE_LIMIT_CHAT_PER_HOUR: "100000",
    RATE_LIMIT_VISITOR_PER_HOUR: "100000",
    RATE_LIMIT_GENERATIONS_PER_HOUR: "100000",
    RATE_LIMIT_CHAT_MEDIA_PER_HOUR: "100000",
  });
  const log = pino({ level: "silent" });
  const database = await openDatabase(config, log);
  const db = database.db;
  const { app, services } = createApp({ db, config, log, databaseUrl: database.url });
  const worker = await startGenerationWorker({
    databaseUrl: database.url,
    config,
    log,
    generation: services.generation,
    storage: services.storage,
    engines: services.engines,
    limiter: services.limiter,
    training: services.training,
    provenance: services.provenance,
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const person = async (i: number) => {
      const login = JSON.parse((await call(`${url}/api/login/visitor`, { method: "POST" })).text) as { data: { token: string; user_info: { id: number } } };
      const userId = login.data.user_info.id;
      await services.credits.grant({ userId, amount: 100_000, reason: "bench", idempotencyKey: `bench-chat-media:${i}` });
      return { token: login.data.token, userId };
    };
    // the one asking for pictures: a character with an avatar (an uploaded, consented photo) and a conversation
    const asker = await person(0);
    const jpeg = await sharp({ create: { width: 768, height: 1024, channels: 3, background: "#a0522d" } })
      .composite([{ input: Buffer.from('<svg width="768" height="1024"><circle cx="384" cy="400" r="220" fill="#f1c27d"/></svg>') }])
      .jpeg()
      .toBuffer();
    const boundary = "benchboundary";
    const form = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="consent"\r\n\r\n1\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
      jpeg,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const upload = await call(`${url}/api/ImageUpload/upload`, { token: asker.token, body: form, type: `multipart/form-data; boundary=${boundary}` });
    const avatarId = (JSON.parse(upload.text) as { data: { id: number } }).data.id;
    const card = { name: "Mira", description: "A 29-year-old lighthouse keeper with red hair", greeting: "Welcome in.", age: 29, avatar_image_id: avatarId };
    const character = JSON.parse((await call(`${url}/api/RoleChat/creatCharacter`, { token: asker.token, body: card })).text).data;
    const conversation = JSON.parse(
      (await call(`${url}/api/RoleChat/creatConversation`, { token: asker.token, body: { character_id: character.id } })).text,
    ).data;

    let asked = 0;
    /** One picture: asked for, followed on its message's stream to its end, its file fetched, as the app shows it. */
    async function picture(): Promise<number> {
      const t0 = now();
      const r = await call(`${url}/api/RoleChat/requestMedia`, {
        token: asker.token,
        body: { conversation_id: conversation.id, kind: "image", idempotency_key: `bench-${++asked}` },
      });
      if (r.status !== 200) throw new Error(`requestMedia answered ${r.status}: ${r.text}`);
      const messageId = JSON.parse(r.text).data.message.id as number;
      const stream = await call(`${url}/api/RoleChat/replyStream?reply_id=${messageId}`, { token: asker.token });
      const end = eventsOf(stream.text).find((e) => e.event === "end");
      const media = end && (JSON.parse(end.data) as { reply: { media: { state: string; image_url: string | null } } }).reply.media;
      if (media?.state !== "succeeded" || !media.image_url) throw new Error(`picture ended ${media?.state ?? "without an end"}`);
      const file = await call(new URL(media.image_url, url).href);
      if (file.status !== 200) throw new Error(`picture file answered ${file.status}`);
      return now() - t0;
    }

    // 1. request to shown, one at a time (the first warms the engine's tools up and is not counted)
    await picture();
    const shown: number[] = [];
    for (let i = 0; i < PICTURES; i++) shown.push(await picture());

    // 2. other people's replies, without and then with pictures rendering beside them
    const talkers = await Promise.all(
      Array.from({ length: TALKERS }, async (_, i) => {
        const p = await person(i + 1);
        const c = await db.character.create({ data: { userId: p.userId, name: "Bench", description: "An adult test character" } });
        const conv = await db.conversation.create({ data: { userId: p.userId, characterId: c.id } });
        return { ...p, conversation: conv.id };
      }),
    );
    let sent = 0;
    /** One reply's per-token delays: from the back end writing each token to its arrival here through the API. */
    function reply(who: (typeof talkers)[number]): Promise<number[]> {
      return new Promise((resolve, reject) => {
        const body = JSON.stringify({ conversation_id: who.conversation, content: "hello", idempotency_key: `bench-reply-${++sent}` });
        const req = http.request(
          `${url}/api/RoleChat/chat`,
          { method: "POST", agent, headers: { token: who.token, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) } },
          (res) => {
            res.setEncoding("utf8");
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
                delays.push(at - written.get(token)!);
              }
            });
            res.on("end", () => (delays.length === TOKENS ? resolve(delays) : reject(new Error(`expected ${TOKENS} tokens, got ${delays.length}`))));
            res.on("error", reject);
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    }
    /** Everyone talks without pause for PHASE_MS (staggered starts); with `pictures`, pictures are asked one after another meanwhile. */
    async function phase(pictures: boolean) {
      const until = now() + PHASE_MS;
      const made: number[] = [];
      const painter = (async () => {
        while (pictures && now() < until) made.push(await picture());
      })();
      const talk = async (who: (typeof talkers)[number]) => {
        await new Promise((r) => setTimeout(r, Math.random() * 1000));
        const delays: number[] = [];
        while (now() < until) delays.push(...(await reply(who)));
        return delays;
      };
      const delays = (await Promise.all(talkers.map(talk))).flat();
      await painter;
      return { delays, made };
    }
    const without: number[] = [];
    const beside: number[] = [];
    const madeBeside: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      without.push(...(await phase(false)).delays);
      const w = await phase(true);
      beside.push(...w.delays);
      madeBeside.push(...w.made);
    }
    const p99Without = percentile(without, 99);
    const p99Beside = percentile(beside, 99);
    const shownMs = median(shown);
    return [
      {
        name: `chat media: request -> picture shown in the conversation, local engine (median of ${PICTURES})`,
        value: shownMs,
        unit: "ms",
        target: "≤ 5000 ms",
        pass: shownMs <= 5000,
        detail: { runs: shown.map(Math.round), max: Math.round(Math.max(...shown)), loadAverage: os.loadavg()[0] },
      },
      {
        name: `chat media: ${TALKERS} people's reply token delay p99 while pictures render / without`,
        value: p99Beside / p99Without,
        unit: "x",
        target: "≤ 1.10x",
        pass: p99Beside <= p99Without * 1.1,
        detail: {
          p99WithoutMs: Math.round(p99Without * 10) / 10,
          p99BesideMs: Math.round(p99Beside * 10) / 10,
          p50WithoutMs: Math.round(median(without) * 10) / 10,
          p50BesideMs: Math.round(median(beside) * 10) / 10,
          tokens: { without: without.length, beside: beside.length },
          picturesBeside: madeBeside.length,
          pictureBesideMedianMs: madeBeside.length ? Math.round(median(madeBeside)) : null,
          loadAverage: os.loadavg()[0],
        },
      },
    ];
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    await worker.stop();
    await services.close();
    await database.close();
    await fake.close();
    agent.destroy();
    await fs.rm(dir, { recursive: true, force: true });
  }
}
