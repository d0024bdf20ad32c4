import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { ensureConsumerBuild, startAppServer } from "./consumer-app.ts";

// Kept apart from consumer-app.ts: the benches import that one outside vitest, where importing vitest throws.

export type AppServer = Awaited<ReturnType<typeof startAppServer>>;

/**
 * The built app, its server and a browser for the test file that calls this: started before its first test and
 * stopped after its last. Read `server` and `browser` inside tests (they are set once the file's set-up has run).
 */
export function appForThisFile(overrides: Record<string, string> = {}): { readonly server: AppServer; readonly browser: Browser } {
  const started = {} as { server: AppServer; browser: Browser };
  beforeAll(async () => {
    const { launchBrowser } = await import("./browser.ts");
    await ensureConsumerBuild();
    [started.server, started.browser] = await Promise.all([startAppServer(overrides), launchBrowser()]);
  }, 180_000);
  afterAll(async () => {
    await started.browser?.close();
    await started.server?.stop();
  });
  return started;
}

/** Opens the home page and takes "try as a guest": the page ends in the creation studio, signed in as a new guest. */
export async function startAsGuest(page: Page, serverUrl: string): Promise<void> {
  await page.goto(`${serverUrl}/home`);
  await page.getByTestId("try-guest").click();
  await page.waitForURL(/\/creationStudio$/);
}
