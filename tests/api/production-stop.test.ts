import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_DIR } from "../../server/src/paths.ts";
import { freePort } from "../net-utils.ts";
import { fileExists, interrupt, spawnReverie, waitForHealth, type ReverieProcess } from "../process-utils.ts";

/** main.ts's STOP_BOUND_MS, the bound the README states. */
const STOP_BOUND_MS = 20_000;

let dir: string;
let p: ReverieProcess | undefined;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-stop-"));
});
afterAll(async () => {
  if (p && p.child.exitCode === null && p.child.signalCode === null) await interrupt(p);
  await fs.rm(dir, { recursive: true, force: true });
});

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });

describe("a process manager stops the production process", () => {
  it("npm start ends by exec'ing the server, so the signal npm forwards to its child reaches the server itself", async () => {
    const { scripts } = JSON.parse(await fs.readFile(path.join(PROJECT_DIR, "package.json"), "utf8")) as { scripts: Record<string, string> };
    // npm forwards SIGTERM and SIGINT to the shell it ran the script in; without exec that shell ends and the server is orphaned
    expect(scripts.start).toMatch(/&& exec node [^&;|]*dist\/server\/main\.js$/);
  });

  it("SIGTERM to the server alone: its event streams end with a reconnect event, the queue and PostgreSQL stop, within the bound", {
    timeout: 120_000,
  }, async () => {
    const pgPort = await freePort();
    const dataDir = path.join(dir, "data");
    p = spawnReverie({ DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort), RUN_WORKER: "true", TEMPLATE_PREVIEWS: "false" });
    await waitForHealth(p, 60_000);
    const token = (await (await fetch(`${p.url}/api/login/visitor`, { method: "POST" })).json()).data.token as string;
    const stream = await fetch(`${p.url}/api/Generation/progress`, { headers: { token, Accept: "text/event-stream" } });
    expect(stream.headers.get("content-type")).toContain("text/event-stream");
    const serverPort = Number(new URL(p.url).port);

    const stoppedAt = Date.now();
    p.child.kill("SIGTERM");
    // the stream ends (the body is read to its end) with the event that tells the app to reconnect
    const events = await stream.text();
    expect(events).toMatch(/retry: \d+\nevent: reconnect\ndata: \{\}\n\n$/);
    expect(await p.exited).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(STOP_BOUND_MS);
    const logged = p
      .output()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { level: number; msg: string; streams?: number });
    expect(logged.filter((l) => l.level >= 50)).toEqual([]);
    expect(logged.find((l) => l.msg === "stopped serving")?.streams).toBe(1);
    // nothing left behind: no server answering, no PostgreSQL holding its port for the restart
    expect(await accepts(serverPort)).toBe(false);
    expect(await accepts(pgPort)).toBe(false);
    expect(await fileExists(path.join(dataDir, "pg", "postmaster.pid"))).toBe(false);
  });
});
