import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../net-utils.ts";
import { startTestServer } from "../server-utils.ts";
import { newStaff, type StaffCredentials } from "../staff-utils.ts";
import { registeredUser } from "../training-utils.ts";
import { launchBrowser, screenshot } from "./browser.ts";
import { ensureConsoleBuilt, signInToConsole } from "./console-build.ts";

let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;
let support: StaffCredentials;

beforeAll(async () => {
  await ensureConsoleBuilt();
  const port = await freePort();
  server = await startTestServer({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` });
  browser = await launchBrowser();
  support = await newStaff(server, ["support"]);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Issue 30 item 6: support runs a person's data export and account deletion from the user's page, with a reason. */
describe("console: a user's data requests", () => {
  it("support asks for the export and the deletion on a phone, each audited", { timeout: 120_000 }, async () => {
    const person = await registeredUser(server);
    const page = await signInToConsole(browser, server.url, support, 360);
    await page.goto(`${server.url}/console/users/${person.userId}/show`);
    for (const action of ["data-export", "delete-account"]) {
      await page.click(`[data-action=users-${action}]`);
      await page.fill('textarea[name="reason"]', "Asked by letter of 27 November");
      await page.click(`[data-submit=users-${action}]`);
    }
    await expect.poll(() => server.db.accountDeletion.count({ where: { userId: person.userId, status: "pending" } })).toBe(1);
    expect(await server.db.dataExport.count({ where: { userId: person.userId } })).toBe(1);
    await screenshot(page, "console-user-data-requests-360");
    const audit = await server.db.auditLog.findMany({ where: { staffId: support.staffId }, select: { action: true } });
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(["data_export", "account_deletion"]));
  });
});
