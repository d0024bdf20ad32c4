import { beforeAll, describe, expect, it } from "vitest";
import { newStaff, type StaffCredentials } from "../staff-utils.ts";
import { screenshot } from "./browser.ts";
import { signInToConsole } from "./console-build.ts";
import { consoleForThisFile } from "./console-per-file.ts";

const app = consoleForThisFile();
let moderator: StaffCredentials;

beforeAll(async () => {
  moderator = await newStaff(app.server, ["moderator"]);
}, 300_000);

/** Issue 29 item 6: a new account that only shares a fingerprint with a banned one is let in and shown to moderators. */
describe("console: bans", () => {
  it("lists the new accounts flagged beside the ban they may be evading, on a phone-size screen", { timeout: 120_000 }, async () => {
    const phone = { "device-fingerprint": "ab".repeat(16) };
    const banned = (await app.server.http.post("/api/login/visitor").set(phone).expect(200)).body.data.user_info.id as number;
    await app.server.services.moderation.ban(moderator.staffId, banned, "Spam");
    const flagged = (await app.server.http.post("/api/login/visitor").set(phone).expect(200)).body.data.user_info.id as number;

    const page = await signInToConsole(app.browser, app.server.url, moderator, 360);
    await page.goto(`${app.server.url}/console/bans`);
    // the ban's own row (its user id exactly, not a longer id containing it) lists exactly the flagged account
    const row = page.locator(".RaDatagrid-table tbody tr").filter({ has: page.locator("td.column-userId", { hasText: new RegExp(`^${banned}$`) }) });
    await row.waitFor();
    expect(await row.count()).toBe(1);
    expect((await row.locator("td.column-flaggedUserIds").innerText()).split(", ")).toEqual([String(flagged)]);
    expect(await page.innerText(".RaDatagrid-table thead")).toContain("Flagged new accounts");
    await screenshot(page, "console-bans-flagged");
    await page.close();
  });
});
