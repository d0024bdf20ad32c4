import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { startTestServer } from "../server-utils.ts";
import { ensureConsoleBuilt } from "./console-build.ts";

// Kept apart from console-build.ts, as app-per-file.ts is from consumer-app.ts: the benches import that one outside vitest.

export type ConsoleServer = Awaited<ReturnType<typeof startTestServer>>;

/**
 * The built console, an API server and a browser for the test file that calls this: started before its first test
 * (its own `beforeAll` hooks run after, so they can make staff and data) and stopped after its last. The server
 * listens where PUBLIC_URL says, since signed media URLs name it and the browser must find them there.
 */
export function consoleForThisFile(overrides: Record<string, string> = {}): { readonly server: ConsoleServer; readonly browser: Browser } {
  const started = {} as { server: ConsoleServer; browser: Browser };
  beforeAll(async () => {
    const { launchBrowser } = await import("./browser.ts");
    await ensureConsoleBuilt();
    [started.server, started.browser] = await Promise.all([startTestServer(overrides, undefined, { ownPublicUrl: true }), launchBrowser()]);
  }, 300_000);
  afterAll(async () => {
    await started.browser?.close();
    await started.server?.stop();
  });
  return started;
}
