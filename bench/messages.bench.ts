import fs from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import { createApp } from "../server/src/app.ts";
import { parseConfig } from "../server/src/config.ts";
import { createDb } from "../server/src/db/client.ts";
import { startEmbeddedPostgres } from "../server/src/db/embedded.ts";
import { runMigrations } from "../server/src/db/migrate.ts";
import { percentile } from "./load-clients.ts";
import type { BenchResult } from "./run.ts";

/** Open threads, each fan with its event stream open the whole time. */
const THREADS = 200;
/** Messages the creator sends, round the threads, one at a time with a short pause (a person typing, not a flood). */
const MESSAGES = 400;
const PAUSE_MS = 5;
const PG_PORT = Number(process.env.BENCH_PG_PORT ?? 55134);

type Who = { token: string; userId: number };

async function postJson(base: string, url: string, token: string | null, body: object = {}) {
  const res = await fetch(`${base}${url}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { token } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { code: number; msg: string; data: Record<string, unknown> };
  if (json.code !== 200) throw new Error(`${url} answered ${json.code}: ${json.msg}`);
  return json.data;
}

/**
 * One account's event stream (GET /api/Generation/progress), read as the app reads it: each `message` event's
 * message id is stamped with the moment it arrived. Resolves once the stream's headers are in (it is listening).
 */
async function openStream(base: string, who: Who, heard: Map<number, number>, signal: AbortSignal): Promise<void> {
  const res = await fetch(`${base}/api/Generation/progress`, { headers: { token: who.token }, signal });
  if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          if (!block.startsWith("event: message\n")) continue;
          const data = JSON.parse(block.slice(block.indexOf("data: ") + 6)) as { message_id: number };
          heard.set(data.message_id, performance.now());
        }
      }
    } catch {
      // aborted at the end
    }
  })();
}

/** Signs in a new account (a guest made a saved account, as the tests do) with no credits. */
async function account(base: string, db: ReturnType<typeof createDb>, i: number): Promise<Who> {
  const data = await postJson(base, "/api/login/visitor", null);
  const who = { token: data.token as string, userId: (data.user_info as { id: number }).id };
  await db.user.update({ where: { id: who.userId }, data: { loginType: "registered", role: "user", email: `bench-${i}@example.com` } });
  return who;
}

/**
 * Message delivery (issue 32 item 6): 200 fans each with a thread with one creator and their event stream open; the
 * creator answers them in turn through POST /api/Messages/send, and each send is timed from the request leaving to
 * the `message` event arriving on that fan's stream (NOTIFY at the sending transaction's commit, the LISTEN hub, the
 * SSE write). Real Express app, throw-away embedded PostgreSQL. Target: p50 <= 50 ms.
 */
export default async function messagesBench(): Promise<BenchResult[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-bench-messages-"));
  const pg = await startEmbeddedPostgres(path.join(dir, "pg"), PG_PORT);
  const db = createDb(pg.url, 10);
  const streams = new AbortController();
  try {
    await runMigrations(pg.url);
    const config = parseConfig({
      NODE_ENV: "test",
      LOG_LEVEL: "silent",
      DATA_DIR: path.join(dir, "data"),
      RATE_LIMIT_VISITOR_PER_HOUR: "100000",
      RATE_LIMIT_IP_PER_HOUR: "100000",
      RATE_LIMIT_LOGIN_PER_MINUTE: "100000",
    });
    const { app, services } = createApp({ db, config, log: pino({ level: "silent" }), databaseUrl: pg.url });
    const server = await new Promise<import("node:http").Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const creator = await account(base, db, 0);
    await postJson(base, "/api/Subscribe/createPage", creator.token, { home_link: "BenchCreator", title: "Bench" });
    const heard = new Map<number, number>();
    const threads: number[] = [];
    for (let i = 1; i <= THREADS; i++) {
      const fan = await account(base, db, i);
      const first = await postJson(base, "/api/Messages/send", fan.token, { home_link: "BenchCreator", body: "Hello", idempotency_key: `bench-first-${i}` });
      threads.push(first.thread_id as number);
      await openStream(base, fan, heard, streams.signal);
    }

    const latencies: number[] = [];
    const sends: number[] = [];
    let lost = 0;
    for (let i = 0; i < MESSAGES; i++) {
      const started = performance.now();
      const sent = await postJson(base, "/api/Messages/send", creator.token, {
        thread_id: threads[i % THREADS],
        body: `Reply ${i}`,
        idempotency_key: `bench-reply-${i}`,
      });
      sends.push(performance.now() - started);
      const id = sent.id as number;
      // the event may come before the answer (both follow the commit) or a little after it
      const deadline = performance.now() + 2000;
      while (!heard.has(id) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 1));
      if (heard.has(id)) latencies.push(heard.get(id)! - started);
      else lost++;
      await new Promise((r) => setTimeout(r, PAUSE_MS));
    }
    // the machine's state in the same run: a signed-in read of one's own account, one at a time
    const reference: number[] = [];
    for (let i = 0; i < 100; i++) {
      const started = performance.now();
      await (await fetch(`${base}/api/Personal/personal_info`, { headers: { token: creator.token } })).arrayBuffer();
      reference.push(performance.now() - started);
    }
    streams.abort();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await services.close();
    const detail = {
      threads: THREADS,
      messages: MESSAGES,
      lost,
      sendP50: percentile(sends, 50),
      sendP95: percentile(sends, 95),
      personalInfoP50: percentile(reference, 50),
      cpus: os.cpus().length,
      loadAverage: os.loadavg()[0],
    };
    const p50 = percentile(latencies, 50);
    return [
      { name: "message send -> other side's stream p50 (200 open threads)", value: p50, unit: "ms", target: "<= 50 ms", pass: p50 <= 50 && lost === 0, detail },
      { name: "message send -> other side's stream p95", value: percentile(latencies, 95), unit: "ms" },
      { name: "message send answer p50", value: percentile(sends, 50), unit: "ms" },
    ];
  } finally {
    streams.abort();
    await db.$disconnect();
    await pg.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}
