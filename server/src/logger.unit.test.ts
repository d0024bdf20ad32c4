import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseConfig } from "./config.ts";
import { createLogger } from "./logger.ts";

async function logged(write: (log: ReturnType<typeof createLogger>) => void): Promise<Record<string, any>> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-log-"));
  try {
    const file = path.join(dir, "log.jsonl");
    const log = createLogger(parseConfig({ NODE_ENV: "test", LOG_LEVEL: "info" }), file);
    write(log);
    log.flush();
    await expect.poll(async () => (await fs.readFile(file, "utf8").catch(() => "")).length).toBeGreaterThan(0);
    return JSON.parse((await fs.readFile(file, "utf8")).trim());
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

describe("createLogger", () => {
  it("logs a thrown string or object as text, not as one field per character", async () => {
    const line = await logged((log) => log.error({ err: "ffmpeg failed to start" }, "job failed"));
    expect(line.err).toEqual({ type: "string", message: "ffmpeg failed to start" });
    const other = await logged((log) => log.error({ err: { reason: "gone" } }, "job failed"));
    expect(other.err).toEqual({ type: "object", message: '{"reason":"gone"}' });
  });

  it("logs an error's type, message, stack and code, not the objects a driver hangs on it", async () => {
    const err = Object.assign(new Error("terminating connection"), {
      code: "57P01",
      severity: "FATAL",
      client: { connectionParameters: { password: "secret" } },
    });
    const line = await logged((log) => log.error({ err }, "queue error"));
    expect(line.err).toMatchObject({ type: "Error", message: "terminating connection", code: "57P01", severity: "FATAL" });
    expect(line.err.stack).toContain("terminating connection");
    expect(line.err).not.toHaveProperty("client");
    expect(JSON.stringify(line)).not.toContain("secret");
  });
});
