import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedUrl, startEmbeddedPostgres, type EmbeddedDb } from "../../server/src/db/embedded.ts";
import { freePort } from "../net-utils.ts";
import { fileExists, interrupt, spawnReverie, waitForHealth, type ReverieProcess } from "../process-utils.ts";

let dir: string;
const running: ReverieProcess[] = [];
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-startup-"));
});
afterAll(async () => {
  for (const p of running) if (p.child.exitCode === null && p.child.signalCode === null) await interrupt(p);
  await fs.rm(dir, { recursive: true, force: true });
});

function start(env: Record<string, string>) {
  const p = spawnReverie(env);
  running.push(p);
  return p;
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });

describe("npm start with the embedded PostgreSQL", () => {
  let dataDir: string;
  let pgPort: number;
  let guest: { token: string; id: number };

  it("starts from an empty DATA_DIR: initialises, migrates, seeds and serves", async () => {
    dataDir = path.join(dir, "data");
    pgPort = await freePort();
    const p = start({ DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort) });
    await waitForHealth(p);
    expect(await fileExists(path.join(dataDir, "pg", "PG_VERSION"))).toBe(true);
    expect(await fs.readFile(path.join(dataDir, "admin-credentials.txt"), "utf8")).toMatch(/username: admin\npassword: \S+/);
    // the first admin's sign-in comes as lines a person reads, with a QR code for the authenticator, not a JSON line
    const password = /^ {2}password: +(\S+)$/m.exec(p.output())?.[1];
    expect(password).toBe(/password: (\S+)/.exec(await fs.readFile(path.join(dataDir, "admin-credentials.txt"), "utf8"))?.[1]);
    expect(p.output()).toMatch(/^ {2}one-time code secret: +[A-Z2-7]+$/m);
    expect(p.output()).toMatch(/[▀▄█]{10}/);
    expect(p.output()).not.toMatch(/\\npassword:/);

    const res = await fetch(`${p.url}/api/login/visitor`, { method: "POST" });
    const body = await res.json();
    guest = { token: body.data.token, id: body.data.user_info.id };

    // Ctrl-C: the process ends and takes PostgreSQL with it
    const code = await interrupt(p);
    expect([0, 130]).toContain(code);
    // stopping on purpose is no error
    const logged = p
      .output()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { level: number; msg: string });
    expect(logged.filter((l) => l.level >= 50)).toEqual([]);
    expect(await fileExists(path.join(dataDir, "pg", "postmaster.pid"))).toBe(false);
    expect(await accepts(pgPort)).toBe(false);
  });

  it("restarts on the same data and finds what it stored", async () => {
    const credentials = await fs.readFile(path.join(dataDir, "admin-credentials.txt"), "utf8");
    const p = start({ DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort) });
    await waitForHealth(p);
    const me = await fetch(`${p.url}/api/Personal/personal_info`, { headers: { token: guest.token } });
    expect(me.status).toBe(200);
    expect((await me.json()).data.info.id).toBe(guest.id);
    // the seed ran again without creating a second admin
    expect(await fs.readFile(path.join(dataDir, "admin-credentials.txt"), "utf8")).toBe(credentials);
    expect([0, 130]).toContain(await interrupt(p));
    expect(await accepts(pgPort)).toBe(false);
  });

  // a terminal's Ctrl-C signals the whole process group: the embedded PostgreSQL gets it too and ends its connections
  // whatever the order, which is the one case logged as a warning; Ctrl-C to the process alone is not even that
  it.each([
    { to: "the process", ownGroup: false, worst: 30, rendering: false },
    { to: "the process group, as a terminal sends it", ownGroup: true, worst: 40, rendering: false },
    // the render and PostgreSQL both stop under the job: pg-boss 10 writes its end unawaited, and that write fails
    { to: "the process group while a render runs", ownGroup: true, worst: 40, rendering: true },
  ])(
    "with the worker on (npm start's default), Ctrl-C to $to stops the queues before PostgreSQL: no error is logged",
    async ({ ownGroup, worst, rendering }) => {
      const port = await freePort();
      const workerData = path.join(dir, `data-worker-${ownGroup ? "group" : "process"}${rendering ? "-rendering" : ""}`);
      const env = {
        DATA_DIR: workerData,
        EMBEDDED_PG_PORT: String(port),
        RUN_WORKER: "true",
        LOG_LEVEL: "info",
        TEMPLATE_PREVIEWS: "false",
      };
      const p = spawnReverie(env, { ownGroup });
      running.push(p);
      // a fresh DATA_DIR (initdb, migrations, seed) on a busy machine; no preview renders, whose stop waits for the one running
      await waitForHealth(p, 60_000);
      // the worker is running once the producer's pg-boss fetches the privacy jobs, which start after it (its log lines are batched)
      const client = new pg.Client({ connectionString: await embeddedUrl(path.join(workerData, "pg"), port) });
      await client.connect();
      try {
        const startedAt = Date.now();
        const fetching = "SELECT 1 FROM pg_stat_activity WHERE application_name = 'reverie-producer' AND query ILIKE '%skip locked%'";
        const ready = async () => (await client.query(fetching)).rowCount;
        while (!(await ready()) && Date.now() - startedAt < 30_000) await new Promise((r) => setTimeout(r, 100));
      } finally {
        await client.end();
      }
      if (rendering) {
        const token = (await (await fetch(`${p.url}/api/login/visitor`, { method: "POST" })).json()).data.token as string;
        const submitted = await fetch(`${p.url}/api/Generation/textPicSubmit`, {
          method: "POST",
          headers: { token, "content-type": "application/json" },
          body: JSON.stringify({ prompt: "a lighthouse at dusk", aspect: "1:1" }),
        });
        const id = (await submitted.json()).data.id as number;
        const state = async () => (await (await fetch(`${p.url}/api/Generation/picVideoSubmitDetails?id=${id}`, { headers: { token } })).json()).data.state;
        const startedAt = Date.now();
        let seen = await state();
        while (seen === "queued" && Date.now() - startedAt < 30_000) seen = await new Promise((r) => setTimeout(r, 20)).then(state);
        expect(seen).toBe("running");
      }
      expect([0, 130], p.output()).toContain(await interrupt(p));
      const logged = p
        .output()
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as { level: number; msg: string; component?: string });
      const stopping = logged.findIndex((l) => l.msg === "shutting down");
      // an intended stop says one line per component whose connection it ended, and prints no stack trace (issue 46 item 24)
      expect(p.output()).not.toMatch(/\\n\s+at /);
      const components = logged.flatMap((l) => (l.component ? [l.component] : []));
      expect(components).toEqual([...new Set(components)]);
      expect(stopping).toBeGreaterThan(-1);
      expect(logged.some((l) => l.msg === "privacy jobs running")).toBe(true);
      expect(logged.filter((l) => l.level >= 50)).toEqual([]);
      // nothing after the stop began is worse than this run allows (a connection cut under the queues, a queue error)
      expect(logged.slice(stopping).filter((l) => l.level > worst)).toEqual([]);
      expect(await accepts(port)).toBe(false);
    },
    120_000,
  );
});

describe("npm start with DATABASE_URL", () => {
  let external: EmbeddedDb;
  beforeAll(async () => {
    // a second PostgreSQL stands in for a managed server
    external = await startEmbeddedPostgres(path.join(dir, "external-pg"), await freePort());
  });
  afterAll(() => external.stop());

  it("uses that server and starts no PostgreSQL of its own", async () => {
    const dataDir = path.join(dir, "data-external");
    const p = start({ DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()), DATABASE_URL: external.url });
    await waitForHealth(p);
    expect(await fileExists(path.join(dataDir, "pg"))).toBe(false);
    const client = new pg.Client({ connectionString: external.url });
    await client.connect();
    try {
      const migrations = await client.query("SELECT name FROM schema_migrations ORDER BY name");
      expect(migrations.rows.map((r) => r.name)).toContain("0001_init.sql");
      expect((await client.query("SELECT username FROM staff")).rows).toEqual([{ username: "admin" }]);
    } finally {
      await client.end();
    }
    expect([0, 130]).toContain(await interrupt(p));
    // the external server is not ours to stop
    expect(await accepts(Number(new URL(external.url).port))).toBe(true);
  });

  // the free sandbox checkout grants real credits: where others reach PUBLIC_URL it is off, and turning it on is said once (decision 350)
  it("serves no sandbox checkout at a public PUBLIC_URL unless SANDBOX_PAY_ENABLED=true, which it warns of in one line", async () => {
    const warnings = (p: ReverieProcess) =>
      p
        .output()
        .split("\n")
        .filter((l) => l.includes("SANDBOX_PAY_ENABLED"));
    const dataDir = path.join(dir, "data-sandbox");
    for (const enabled of [false, true]) {
      const p = start({
        DATA_DIR: dataDir,
        PORT: String(await freePort()),
        EMBEDDED_PG_PORT: String(await freePort()),
        DATABASE_URL: external.url,
        NODE_ENV: "development",
        PUBLIC_URL: "https://reverie.example",
        ...(enabled ? { SANDBOX_PAY_ENABLED: "true" } : {}),
      });
      await waitForHealth(p);
      // mounted, the checkout refuses a malformed session id itself; unmounted, nothing answers the path
      const page = await fetch(`${p.url}/sandbox-pay/not-a-session`);
      const refusal = await page.text();
      expect({ status: page.status, ownRefusal: refusal.includes("Unknown checkout") }, refusal).toEqual(
        enabled ? { status: 400, ownRefusal: true } : { status: 404, ownRefusal: false },
      );
      expect([0, 130]).toContain(await interrupt(p));
      const lines = warnings(p);
      expect(lines, p.output()).toHaveLength(enabled ? 1 : 0);
      if (enabled) {
        expect(JSON.parse(lines[0])).toMatchObject({
          level: 40,
          msg: "SANDBOX_PAY_ENABLED=true: the sandbox checkout grants real credits for free test payments to anyone who reaches https://reverie.example",
        });
      }
    }
  });
});

describe("bad settings", () => {
  it("stop the start with a message naming the setting", async () => {
    const p = start({ DATA_DIR: path.join(dir, "never"), PORT: "not-a-port", EMBEDDED_PG_PORT: String(await freePort()) });
    expect(await p.exited).toBe(1);
    expect(p.output()).toMatch(/Invalid configuration:\n\s+PORT: /);
    expect(p.output()).not.toMatch(/\n\s+at /); // no stack trace
    expect(await fileExists(path.join(dir, "never"))).toBe(false);
  });
});
