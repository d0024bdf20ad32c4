import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { unzipSync } from "fflate";
import pg from "pg";
import { migrationFiles } from "../../server/src/db/migrate.ts";
import { MSG } from "../../server/src/http/messages.ts";
import type { FakeOpenAi } from "../fixtures/fake-openai.ts";
import type { S3rverStore } from "../fixtures/s3rver.ts";
import { freshTotpCode, newStaff } from "../staff-utils.ts";
import { type Layout, type Proc, startWorker, until } from "./cluster.ts";
import { Browser, deliver, openSse, paymentNotification } from "./guest.ts";
import type { LogEntry, Nginx } from "./nginx.ts";
import type { PostgresServer } from "./postgres.ts";
import type { Db } from "../../server/src/db/client.ts";
import { taskWorkDirPrefix } from "../../server/src/worker/generation.worker.ts";

export interface Ctx {
  nginx: Nginx;
  layout: Layout;
  db: PostgresServer;
  store: S3rverStore;
  prisma: Db;
  /** product ids by code (the shipped credit packs) */
  products: Record<string, number>;
  /** SANDBOX_WEBHOOK_SECRET of the layout */
  webhookSecret: string;
  /** The limit on new guests per client address per hour the layout runs with. */
  guestsPerHour: number;
  /** The chat back end every instance is configured with (CHAT_BACKENDS), an OpenAI-protocol fake. */
  chat: FakeOpenAi;
}

/** A journey: `run` throws when something it asserts does not hold, and may answer what it measured, to print. */
export type Journey = { name: string; run: (c: Ctx) => Promise<string | undefined | void> };

export function check(ok: unknown, what: string): asserts ok {
  if (!ok) throw new Error(what);
}

export async function sql<T = Record<string, unknown>>(c: Pick<Ctx, "db">, q: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: c.db.url });
  await client.connect();
  try {
    return (await client.query(q, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** The objects in a store under a prefix. */
export async function listObjects(store: S3rverStore, prefix: string): Promise<string[]> {
  const s3 = s3Of(store);
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: store.bucket, Prefix: prefix, ContinuationToken: token }));
    keys.push(...(page.Contents ?? []).map((o) => o.Key!));
    token = page.NextContinuationToken;
  } while (token);
  return keys;
}

export async function getObject(store: S3rverStore, key: string): Promise<Buffer> {
  const res = await s3Of(store).send(new GetObjectCommand({ Bucket: store.bucket, Key: key }));
  return Buffer.from(await res.Body!.transformToByteArray());
}

export function s3Of(store: S3rverStore): S3Client {
  return new S3Client({
    endpoint: store.url,
    region: store.region,
    forcePathStyle: true,
    credentials: { accessKeyId: store.accessKeyId, secretAccessKey: store.secretAccessKey },
  });
}

/** Credits bought the way a person buys them: a sandbox checkout through nginx and the gateway's signed notification. */
export async function buyCredits(c: Ctx, b: Browser, code = "credits_150"): Promise<void> {
  const order = await b.order(c.products[code]!);
  const paid = await deliver(c.nginx.url, paymentNotification(c.webhookSecret, order, 7999));
  check(paid.status === 200, `payment notification: ${paid.status} ${JSON.stringify(paid.body)}`);
}

export async function waitForTask(c: Ctx, id: number, ms = 90_000): Promise<{ status: string; attempts: number; cost: number }> {
  let row: { status: string; attempts: number; cost: number } | undefined;
  await until(
    `task ${id} to end`,
    async () => {
      [row] = await sql<{ status: string; attempts: number; cost: number }>(c, "SELECT status::text, attempts, cost FROM generation_tasks WHERE id = $1", [id]);
      return ["succeeded", "failed", "expired"].includes(row?.status ?? "");
    },
    ms,
  );
  return row!;
}

/**
 * `p`'s value, or `otherwise` once `ms` have passed; the timer is cleared either way (a 90 s timer left running kept
 * the whole run alive for a minute after its last line).
 */
async function within<T>(p: Promise<T>, ms: number, otherwise: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<T>((resolve) => (timer = setTimeout(() => resolve(otherwise), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** The access log's entries since `from` (an index into it) for a path. */
const entriesOf = (log: LogEntry[], from: number, path: string) => log.slice(from).filter((e) => e.path.startsWith(path));

/**
 * The proxy's access log, once it holds at least `count` entries since `from` for each of `paths`: nginx writes a
 * request's line after its answer has left, so on a busy machine a client can read the answer before the line is
 * written (a journey once found no line for the order it had just made). Gives up after 5 s with what is there.
 */
async function logHolding(c: Ctx, from: number, paths: Record<string, number>): Promise<LogEntry[]> {
  for (let tries = 0; ; tries++) {
    const log = await c.nginx.log();
    if (tries >= 50 || Object.entries(paths).every(([path, count]) => entriesOf(log, from, path).length >= count)) return log;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The pid of the ffmpeg a worker runs for this task, known by the task's work folder in its arguments; none when it runs none. */
function renderOf(worker: Proc, taskId: number): number | undefined {
  const folder = taskWorkDirPrefix(taskId);
  const running = (pid: string) => {
    try {
      // an ended child that a frozen worker has not reaped yet (a zombie) has no arguments left: not running
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(folder);
    } catch {
      return false;
    }
  };
  let pids: string[];
  try {
    pids = execFileSync("pgrep", ["-P", String(worker.child.pid)], { encoding: "utf8" })
      .trim()
      .split("\n");
  } catch {
    // pgrep exits 1 when the worker has no child
    return undefined;
  }
  const pid = pids.find(running);
  return pid ? Number(pid) : undefined;
}

export const journeys: Journey[] = [
  {
    name: "four processes started together on an empty database: the migrations ran once, the others waited, all four serve",
    async run(c) {
      const { layout } = c;
      const shipped = await migrationFiles();
      const applied = layout.apis.map((a) => (a.lines().find((l) => l.msg === "migrations applied")?.applied as string[] | undefined) ?? []);
      check(applied.filter((a) => a.length).length === 1, `migrations applied by ${applied.map((a) => a.length).join(" and ")} files`);
      check(applied.flat().length === shipped.length, `${applied.flat().length} of ${shipped.length} migrations applied`);
      const [{ n }] = await sql<{ n: number }>(c, "SELECT count(*)::int AS n FROM schema_migrations");
      check(n === shipped.length, `schema_migrations has ${n} rows, ${shipped.length} shipped`);
      for (const w of layout.workers)
        check(
          w.lines().some((l) => l.msg === "waiting for the API to apply the migrations"),
          `${w.name} did not wait for the migrations`,
        );
      const from = (await c.nginx.log()).length;
      const viaProxy = await Promise.all([1, 2, 3, 4].map(() => fetch(`${c.nginx.url}/api/ready`).then((r) => r.status)));
      check(
        viaProxy.every((s) => s === 200),
        `through nginx: ${viaProxy}`,
      );
      const served = new Set(entriesOf(await logHolding(c, from, { "/api/ready": 4 }), from, "/api/ready").map((e) => e.upstream));
      check(served.size === 2, `nginx sent four requests to ${[...served]}`);
    },
  },
  {
    name: "a guest uploads a photo, submits a video and follows its progress on another instance; the result downloads by range through its signed URL",
    async run(c) {
      const from = (await c.nginx.log()).length;
      const b = await new Browser(c.nginx.url).guest();
      await buyCredits(c, b);
      const imageId = await b.uploadPhoto();
      const { id } = await b.ok("POST", "/api/Generation/picVideoSubmit", { image_id: imageId, resolution: "480P", duration: 4 });
      const stream = await openSse(`${c.nginx.url}/api/Generation/progress?id=${id}`, b.headers());
      await within(stream.ended, 90_000, 0);
      stream.close();
      const last = stream.events.at(-1)?.data;
      if (last?.state === "failed") {
        const [row] = await sql(c, "SELECT attempts, error FROM generation_tasks WHERE id = $1", [id]);
        throw new Error(`the video failed: ${JSON.stringify(row)}`);
      }
      check(last?.status === "succeeded" || last?.state === "succeeded" || last?.video_url, `the stream ended with ${JSON.stringify(last)}`);
      check(
        stream.events.some((e) => e.data.state === "running"),
        `no live progress before the end: ${JSON.stringify(stream.events.map((e) => e.data.state ?? e.data.status))}`,
      );
      const log = await logHolding(c, from, { "/api/Generation/picVideoSubmit": 1, "/api/Generation/progress": 1 });
      const submit = entriesOf(log, from, "/api/Generation/picVideoSubmit")[0]!;
      const progress = entriesOf(log, from, "/api/Generation/progress")[0]!;
      check(submit.upstream !== progress.upstream, `submit and its progress both served by ${submit.upstream}`);
      const mine = log.slice(from);
      check(
        mine.every((e, i) => i === 0 || e.upstream !== mine[i - 1]!.upstream || e.path.startsWith("/api/Generation/progress")),
        `two requests in a row on one instance: ${mine.map((e) => `${e.path} ${e.upstream}`).join("; ")}`,
      );

      const details = await b.ok("GET", `/api/Generation/picVideoSubmitDetails?id=${id}`);
      const url = new URL(details.video_url as string);
      check(url.origin === c.store.url, `the result's URL is not the store's: ${url.origin}`);
      const key = decodeURIComponent(url.pathname.slice(`/${c.store.bucket}/`.length));
      check(key.startsWith(`u/${b.userId}/`), `the result is stored at ${key}`);
      const whole = await getObject(c.store, key);
      const res = await fetch(url, { headers: { range: "bytes=100-1099" } });
      const part = Buffer.from(await res.arrayBuffer());
      check(res.status === 206, `range read answered ${res.status}`);
      check(res.headers.get("content-range") === `bytes 100-1099/${whole.length}`, `content-range ${res.headers.get("content-range")}`);
      check(part.equals(whole.subarray(100, 1100)), "the range read's bytes differ from the stored object's");
      check(whole.subarray(4, 8).toString("latin1") === "ftyp", "the result is not an MP4");
    },
  },
  {
    name: "a worker killed (SIGKILL) mid-render: the other worker finishes the video, charged once",
    async run(c) {
      const b = await new Browser(c.nginx.url).guest();
      await buyCredits(c, b);
      const imageId = await b.uploadPhoto();
      // a clip whose render takes seconds even on a quiet machine (16 s at 720P: about 5), so the kill lands inside it
      const { id } = await b.ok("POST", "/api/Generation/picVideoSubmit", { image_id: imageId, resolution: "720P", duration: 16 });
      const live = c.layout.workers.filter((w) => !w.gone());
      let target: { worker: Proc; ffmpeg: number } | undefined;
      await until(
        "a worker to start rendering this task",
        () => {
          target = live.map((worker) => ({ worker, ffmpeg: renderOf(worker, id) ?? 0 })).find((t) => t.ffmpeg);
          return target !== undefined;
        },
        120_000,
      );
      const { worker, ffmpeg } = target!;
      // frozen first: with its render still running, nothing of this attempt can have reached the database (the result
      // is stored and the task completed only after ffmpeg ends), so the kill lands mid-render for sure
      worker.child.kill("SIGSTOP");
      const [row] = await sql<{ status: string; attempts: number; progress: number }>(
        c,
        "SELECT status::text, attempts, progress FROM generation_tasks WHERE id = $1",
        [id],
      );
      const rendering = renderOf(worker, id) === ffmpeg;
      if (!rendering || row?.status !== "running") {
        worker.child.kill("SIGCONT");
        throw new Error(`${worker.name} was stopped after the render of task ${id} (${rendering ? "still rendering" : "ended"}, task ${JSON.stringify(row)})`);
      }
      // its ffmpeg with it, as systemd kills a unit's whole control group (first: the frozen worker has not reaped it)
      process.kill(ffmpeg, "SIGKILL");
      worker.child.kill("SIGKILL");
      const killedAt = Date.now();
      await worker.exited;
      // a replacement, as systemd's Restart=on-failure would start
      const replacement = startWorker(c.layout, `worker${c.layout.workers.length + 1}`);
      c.layout.workers.push(replacement);
      const done = await waitForTask(c, id, 180_000);
      check(done.status === "succeeded", `the task ended ${done.status}`);
      check(done.attempts > row.attempts, `the task ran ${done.attempts} time(s), ${row.attempts} when its worker was killed`);
      const ledger = await sql<{ reason: string; delta: number }>(c, "SELECT reason, delta FROM ledger_entries WHERE reference = $1", [`task:${id}`]);
      check(ledger.length === 1 && ledger[0]!.reason === "generation", `ledger for the task: ${JSON.stringify(ledger)}`);
      check((await b.balance()) === 150 - done.cost, `balance ${await b.balance()} after a ${done.cost} credit video from 150`);
      return `${worker.name} killed at ${row.progress}% of attempt ${row.attempts}; done after ${done.attempts} attempts, ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill`;
    },
  },
  {
    name: "a ban through one instance ends the person's open chat and progress streams and media pass on the other within 1 s",
    async run(c) {
      const staff = await newStaff({ db: c.prisma }, ["admin"]);
      const console = new Browser(c.nginx.url);
      console.token = (
        await console.ok("POST", "/admin/api/login", { username: staff.username, password: staff.password, code: await freshTotpCode(staff) })
      ).token;
      // a creator's members-only picture: rendered through the app, the page and its library row written as publishing
      // leaves them (the creator's side is not what this journey is about)
      const creator = await new Browser(c.nginx.url).guest();
      await buyCredits(c, creator);
      const { id: taskId } = await creator.ok("POST", "/api/Generation/textPicSubmit", { prompt: "a lighthouse on a cliff at dusk", aspect: "1:1" });
      check((await waitForTask(c, taskId)).status === "succeeded", "the creator's picture did not render");
      const link = `Scale${creator.userId}`;
      const page = await c.prisma.creatorPage.create({ data: { userId: creator.userId, homeLink: link, title: "Scale", membershipPrice: 30 } });
      await c.prisma.creatorLibraryItem.create({ data: { creatorPageId: page.id, taskId, visibility: "members" } });

      const b = await new Browser(c.nginx.url).guest();
      await buyCredits(c, b);
      await b.ok("POST", "/api/Subscribe/joinMembership", { home_link: link });
      const item = (await b.ok("GET", `/api/Subscribe/getHomeLinkInfo?home_link=${link}`)).library[0];
      const file = new URL(item.image_url, c.nginx.url);
      check(file.origin === c.nginx.url, `the members-only file is not served by the app: ${file}`);
      const pass = await fetch(`${c.nginx.url}/api/Subscribe/mediaPass`, { method: "POST", headers: b.headers() });
      const cookie = pass.headers.get("set-cookie")?.split(";")[0] ?? "";
      // as a <video> element asks: the pass cookie, no token, a range
      const withPass = async () => (await fetch(file, { headers: { cookie, range: "bytes=0-99", "x-forwarded-for": b.ip } })).status;
      const before = [await withPass(), await withPass()];
      check(before.join() === "206,206", `the media pass opened the file with ${before}`);
      const character = await b.ok("POST", "/api/RoleChat/creatCharacter", { name: "Ada", description: "An adult archivist", greeting: "Hello." });
      const conversation = await b.ok("POST", "/api/RoleChat/creatConversation", { character_id: character.id });
      // a reply that streams for a minute unless something ends it
      c.chat.setRespond(() => ({ kind: "stream", text: "word ".repeat(3000), tokenDelayMs: 20 }));

      // nginx takes turns (one worker process, round robin): the chat on one instance, a pass request on the other, the
      // progress stream on the first again, the ban on the second — checked in the access log below
      const from = (await c.nginx.log()).length;
      const chat = await openSse(`${c.nginx.url}/api/RoleChat/chat`, b.headers(), { conversation_id: conversation.id, content: "Tell me a long story" });
      await until("the chat reply to stream", () => chat.events.some((e) => e.event === "token"), 30_000);
      check((await withPass()) === 206, "the media pass stopped opening the file before the ban");
      const progress = await openSse(`${c.nginx.url}/api/Generation/progress`, b.headers());
      await console.ok("POST", `/admin/api/users/${b.userId}/ban`, { reason: "Abuse" });
      const bannedAt = Date.now();
      const after = [await withPass(), await withPass()];
      const passRefusedIn = Date.now() - bannedAt;
      const [chatEndedAt, progressEndedAt] = await Promise.all([chat, progress].map((s) => within(s.ended, 5000, Number.POSITIVE_INFINITY)));
      chat.close();
      progress.close();
      // the reply stops with the ban notice, nothing of it after; the stream then closes once the reply is stored
      const tail = chat.events.slice(-2);
      check(
        tail.map((e) => e.event).join() === "refused,end" && tail[0]!.data.msg === MSG.noLoginPermission,
        `the chat stream ended with ${JSON.stringify(tail)}, not the ban notice`,
      );
      const noticeIn = tail[0]!.at - bannedAt;
      check(noticeIn <= 1000, `the chat reply stopped with the ban notice ${noticeIn} ms after the ban`);
      check(chatEndedAt - bannedAt <= 5000, "the chat stream was still open 5 s after the ban");
      check(progressEndedAt - bannedAt <= 1000, `the progress stream ended ${progressEndedAt - bannedAt} ms after the ban`);
      check(after.join() === "404,404" && passRefusedIn <= 1000, `after the ban the media pass answered ${after} within ${passRefusedIn} ms`);
      const log = await logHolding(c, from, { "/admin/api/users/": 1, "/api/RoleChat/chat": 1, "/api/Generation/progress": 1, [file.pathname]: 2 });
      const ban = entriesOf(log, from, "/admin/api/users/")[0]!;
      for (const path of ["/api/RoleChat/chat", "/api/Generation/progress"]) {
        const open = entriesOf(log, from, path)[0]!;
        check(ban.upstream !== open.upstream, `the ban and ${path} were both served by ${ban.upstream}`);
      }
      const passServed = new Set(entriesOf(log, from, file.pathname).map((e) => e.upstream));
      check(passServed.size === 2, `the refused media pass requests were all served by ${[...passServed]}`);
      for (const api of c.layout.apis) {
        const asBanned = await fetch(`${api.url}/api/Personal/personal_info`, { headers: { token: b.token } });
        check(asBanned.status === 403, `${api.name} answered ${asBanned.status} to the banned login`);
      }
      return `after the ban's answer: chat notice ${noticeIn} ms, chat closed ${chatEndedAt - bannedAt} ms, progress closed ${progressEndedAt - bannedAt} ms, pass refused twice in ${passRefusedIn} ms`;
    },
  },
  {
    name: "a rate limit counts across instances: N+1 new guests from one address spread over both, the last refused",
    async run(c) {
      const ip = "10.250.0.1";
      const from = (await c.nginx.log()).length;
      const statuses: number[] = [];
      for (let i = 0; i <= c.guestsPerHour; i++) statuses.push((await new Browser(c.nginx.url, ip).call("POST", "/api/login/visitor")).status);
      const expected = [...Array(c.guestsPerHour).fill(200), 429];
      check(statuses.join() === expected.join(), `answers ${statuses.join()}`);
      const served = new Set(
        entriesOf(await logHolding(c, from, { "/api/login/visitor": c.guestsPerHour + 1 }), from, "/api/login/visitor").map((e) => e.upstream),
      );
      check(served.size === 2, `all ${c.guestsPerHour + 1} were served by ${[...served]}`);
    },
  },
  {
    name: "a payment notification to one instance credits an order made through the other exactly once, replayed to both at once",
    async run(c) {
      const b = await new Browser(c.nginx.url).guest();
      const from = (await c.nginx.log()).length;
      const order = await b.order(c.products.credits_150!);
      const madeOn = entriesOf(await logHolding(c, from, { "/api/order/createOrderAndPay": 1 }), from, "/api/order/createOrderAndPay")[0]!.upstream;
      const other = c.layout.apis.find((a) => !madeOn.endsWith(a.url.replace("http://", "")))!;
      const n = paymentNotification(c.webhookSecret, order, 7999);
      const answers = await Promise.all([other.url, ...c.layout.apis.flatMap((a) => [a.url, a.url, a.url]), c.nginx.url].map((to) => deliver(to, n)));
      check(
        answers.every((a) => a.status === 200),
        `answers ${answers.map((a) => a.status)}`,
      );
      check(
        answers.filter((a) => a.body.data?.duplicate === false).length === 1,
        `credited by ${answers.filter((a) => a.body.data?.duplicate === false).length} deliveries`,
      );
      check((await b.balance()) === 150, `balance ${await b.balance()}`);
      const ledger = await sql(c, "SELECT id FROM ledger_entries WHERE user_id = $1 AND reason = 'purchase'", [b.userId]);
      check(ledger.length === 1, `${ledger.length} purchase entries`);
    },
  },
  {
    name: "a data export and an account erasure reach the object store: the archive holds the photo, nothing of the person is left after",
    async run(c) {
      const b = await new Browser(c.nginx.url).guest();
      await b.uploadPhoto();
      const stored = await listObjects(c.store, `u/${b.userId}/`);
      check(stored.length > 0, "the photo is not in the store");
      const { id } = await b.ok("POST", "/api/privacy/export");
      let link: { url: string } | undefined;
      await until("the export to be ready", async () => {
        const a = await b.call("GET", `/api/privacy/export/link?id=${id}`);
        if (a.status === 200) link = a.body.data;
        return a.status === 200;
      });
      const archive = Buffer.from(await (await fetch(new URL(link!.url, c.nginx.url))).arrayBuffer());
      const files = unzipSync(new Uint8Array(archive));
      const photo = await getObject(c.store, stored.find((k) => k.includes("/uploads/"))!);
      check(
        Object.values(files).some((f) => Buffer.from(f).equals(photo)),
        `the archive (${Object.keys(files).join(", ")}) lacks the photo`,
      );
      check((await listObjects(c.store, `u/${b.userId}/exports/`)).length === 1, "the archive is not in the store");
      await b.ok("POST", "/api/privacy/deletion", { confirm: true });
      await until("nothing of the person in the bucket", async () => (await listObjects(c.store, `u/${b.userId}/`)).length === 0, 60_000);
      check((await b.call("GET", "/api/Personal/personal_info")).status === 401, "the erased account's login still works");
    },
  },
  {
    name: "/metrics of each instance is scraped on its own address, counting its own requests; through the proxy it is refused",
    async run(c) {
      /** GET /api/health answers counted by the instance at this address. */
      const healthCount = async (url: string) => {
        const res = await fetch(`${url}/metrics`);
        const text = await res.text();
        check(res.status === 200 && text.includes("# TYPE reverie_http_request_duration_seconds histogram"), `${url}/metrics answered ${res.status}`);
        const line = text.split("\n").find((l) => l.startsWith("reverie_http_request_duration_seconds_count{") && l.includes('route="/api/health"'));
        return Number(line?.split(" ").at(-1) ?? 0);
      };
      const [a, b] = c.layout.apis;
      const before = [await healthCount(a!.url), await healthCount(b!.url)];
      for (let i = 0; i < 5; i++) await fetch(`${a!.url}/api/health`);
      const after = [await healthCount(a!.url), await healthCount(b!.url)];
      check(after[0]! - before[0]! === 5 && after[1] === before[1], `health answers counted ${before} then ${after}: each address is not its own instance`);
      const proxied = await fetch(`${c.nginx.url}/metrics`);
      check(proxied.status === 403, `/metrics through nginx answered ${proxied.status}`);
    },
  },
];
