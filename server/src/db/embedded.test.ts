import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { freePort } from "../../../tests/net-utils.ts";
import { startEmbeddedPostgres } from "./embedded.ts";

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
