import { fork } from "node:child_process";
import fs from "node:fs/promises";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import { createApp } from "../server/src/app.ts";
import { parseConfig } from "../server/src/config.ts";
import { createDb } from "../server/src/db/client.ts";
import { startEmbeddedPostgres } from "../server/src/db/embedded.ts";
import { runMigrations } from "../server/src/db/migrate.ts";
import { freePort } from "../tests/net-utils.ts";
import type { BenchResult } from "./run.ts";

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.max(0, Math.ceil((p / 100) * xs.length) - 1))];
const STREAMS = 200;

interface LoadResult {
  first: number[];
  delays: number[];
  streams: number;
  wallMs: number;
  error?: string;
}

/**
 * Our overhead on a chat reply (issue 15). bench/chat-load.ts runs in a child process: a fake OpenAI-compatible back
 * end that notes when it writes each token (30 tokens/s, 60 tokens per reply), and clients that note when each token
 * arrives through this process's API. Both clocks are the same machine's monotonic clock (performance.timeOrigin is
 * per process, so the child reports deltas it measured itself: write and arrival are both in the child).
 */
export default async function chatBench(): Promise<BenchResult[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-bench-chat-"));
  const pg = await startEmbeddedPostgres(path.join(dir, "pg"), await freePort());
  const child = fork(path.join(path.dirname(new URL(import.meta.url).pathname), "chat-load.ts"), [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const messages: unknown[] = [];
  const waiters: ((m: unknown) => void)[] = [];
  child.on("message", (m) => (waiters.length ? waiters.shift()!(m) : messages.push(m)));
  const next = <T>() => new Promise<T>((resolve) => (messages.length ? resolve(messages.shift() as T) : waiters.push(resolve as (m: unknown) => void)));
  const { backendUrl } = await next<{ backendUrl: string }>();

  await runMigrations(pg.url);
  const db = createDb(pg.url, 20);
  const config = parseConfig({
    DATA_DIR: path.join(dir, "data"),
    LOG_LEVEL: "silent",
    CHAT_BACKENDS: JSON.stringify([{ name: "fake", baseUrl: backendUrl, model: "fake-model" }]),
    CHAT_FREE_MESSAGES: "0",
    RATE_LIMIT_CHAT_PER_HOUR: "100000",
    RATE_LIMIT_VISITOR_PER_HOUR: "100000",
  });
  const { app, services } = createApp({ db, config, log: pino({ level: "silent" }), databaseUrl: pg.url });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    // one person per stream, as 200 people would be (one account's replies would queue on its balance row)
    const people = await Promise.all(
      Array.from({ length: STREAMS }, async (_, i) => {
        const login = (await (await fetch(`${url}/api/login/visitor`, { method: "POST" })).json()) as { data: { token: string; user_info: { id: number } } };
        const userId = login.data.user_info.id;
        await services.credits.grant({ userId, amount: 1000, reason: "bench", idempotencyKey: `bench-chat-grant:${i}` });
        const character = await db.character.create({ data: { userId, name: "Bench", description: "An adult test character" } });
        const conversation = await db.conversation.create({ data: { userId, characterId: character.id } });
        return { token: login.data.token, conversation: conversation.id };
      }),
    );
    const conversations = people.map((p) => ({ id: p.conversation }));
    child.send({ url, people });
    const r = await next<LoadResult>();
    if (r.error) throw new Error(r.error);
    const stored = await db.chatMessage.count({ where: { conversationId: { in: conversations.map((c) => c.id) }, role: "assistant", status: "complete" } });
    const p50First = percentile(r.first, 50);
    const p99 = percentile(r.delays, 99);
    return [
      { name: "chat: back end first token -> browser first token p50 (40 replies, one at a time)", value: p50First, unit: "ms", target: "≤ 20 ms", pass: p50First <= 20, detail: { p90: percentile(r.first, 90), max: Math.max(...r.first) } },
      {
        name: `chat: ${STREAMS} concurrent replies at 30 tokens/s, added delay per token p99`,
        value: p99,
        unit: "ms",
        target: "≤ 50 ms",
        pass: p99 <= 50 && r.streams === STREAMS,
        detail: { streams: r.streams, tokens: r.delays.length, p50: percentile(r.delays, 50), p90: percentile(r.delays, 90), max: Math.max(...r.delays), wallMs: Math.round(r.wallMs), storedComplete: stored, loadAverage: os.loadavg()[0] },
      },
    ];
  } finally {
    child.kill();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    await services.close();
    await db.$disconnect();
    await pg.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}
