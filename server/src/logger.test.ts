import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseConfig } from "./config.ts";
import { createLogger } from "./logger.ts";

describe("createLogger", () => {
  it("logs an error's type, message, stack and code, not the objects a driver hangs on it", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-log-"));
    try {
      const file = path.join(dir, "log.jsonl");
      const log = createLogger(parseConfig({ NODE_ENV: "test", LOG_LEVEL: "info" }), file);
      const err = Object.assign(new Error("terminating connection"), { code: "57P01", severity: "FATAL", client: { connectionParameters: { password: "secret" } } });
      log.error({ err }, "queue error");
      log.flush();
      await expect.poll(async () => (await fs.readFile(file, "utf8").catch(() => "")).length).toBeGreaterThan(0);
      const line = JSON.parse((await fs.readFile(file, "utf8")).trim());
      expect(line.err).toMatchObject({ type: "Error", message: "terminating connection", code: "57P01", severity: "FATAL" });
      expect(line.err.stack).toContain("terminating connection");
      expect(line.err).not.toHaveProperty("client");
      expect(JSON.stringify(line)).not.toContain("secret");
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
