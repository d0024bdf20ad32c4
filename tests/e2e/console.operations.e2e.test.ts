import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../server-utils.ts";
import { staffMember } from "../staff-utils.ts";
import { launchBrowser, screenshot } from "./browser.ts";
import { ensureConsoleBuilt, signInToConsole } from "./console-build.ts";
import { freePort } from "../net-utils.ts";

/** The console's operations page: the /metrics figures for staff, by role. */
let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;

beforeAll(async () => {
  await ensureConsoleBuilt();
  const port = await freePort();
  server = await startTestServer({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` });
  browser = await launchBrowser();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("console operations page in Chromium", () => {
  it("shows admins and support the figures, refreshed live; other staff have no such menu", { timeout: 120_000 }, async () => {
    for (const role of ["admin", "support"] as const) {
      const page = await signInToConsole(browser, server.url, await staffMember(server, [role]), 360);
      await page.goto(`${server.url}/console/operations`);
      await page.waitForSelector("[data-testid='operations-page']");
      expect(await page.locator("[data-testid='queue-queued']").innerText()).toMatch(/Waiting\s+0/);
      expect(await page.locator("body").innerText()).toContain("local: up");
      // a second read draws the first point of the live chart
      await page.waitForSelector(".recharts-line-curve", { state: "attached", timeout: 15_000 });
      await screenshot(page, `console-operations-${role}-360`);
      await page.close();
    }
    const marketer = await signInToConsole(browser, server.url, await staffMember(server, ["marketer"]), 1400);
    await marketer.waitForSelector("text=Templates");
    expect(await marketer.locator("a[href$='/operations']").count()).toBe(0);
    await marketer.close();
  });
});
