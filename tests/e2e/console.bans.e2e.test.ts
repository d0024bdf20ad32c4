import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../net-utils.ts";
import { startTestServer } from "../server-utils.ts";
import { newStaff, type StaffCredentials } from "../staff-utils.ts";
import { launchBrowser, screenshot } from "./browser.ts";
import { ensureConsoleBuilt, signInToConsole } from "./console-build.ts";

let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;
let moderator: StaffCredentials;

beforeAll(async () => {
  await ensureConsoleBuilt();
  const port = await freePort();
  server = await startTestServer({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` });
  browser = await launchBrowser();
  moderator = await newStaff(server, ["moderator"]);
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Issue 29 item 6: a new account that only shares a fingerprint with a banned one is let in and shown to moderators. */
describe("console: bans", () => {
  it("lists the new accounts flagged beside the ban they may be evading, on a phone-size screen", { timeout: 120_000 }, async () => {
    const phone = { "device-fingerprint": "ab".repeat(16) };
    const banned = (await server.http.post("/api/login/visitor").set(phone).expect(200)).body.data.user_info.id as number;
    await server.services.moderation.ban(moderator.staffId, banned, "Spam");
    const flagged = (await server.http.post("/api/login/visitor").set(phone).expect(200)).body.data.user_info.id as number;

    const page = await signInToConsole(browser, server.url, moderator, 360);
    await page.goto(`${server.url}/console/bans`);
    const cell = page.locator(`.RaDatagrid-table td:has-text("${flagged}")`).last();
    await cell.waitFor();
    expect(await page.innerText(".RaDatagrid-table thead")).toContain("Flagged new accounts");
    await screenshot(page, "console-bans-flagged");
    await page.close();
  });
});
