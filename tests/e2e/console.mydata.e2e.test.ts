import { beforeAll, describe, expect, it } from "vitest";
import { newStaff, type StaffCredentials } from "../staff-utils.ts";
import { registeredUser } from "../training-utils.ts";
import { screenshot } from "./browser.ts";
import { signInToConsole } from "./console-build.ts";
import { consoleForThisFile } from "./console-per-file.ts";

const app = consoleForThisFile();
let support: StaffCredentials;

beforeAll(async () => {
  support = await newStaff(app.server, ["support"]);
}, 300_000);

/** Issue 30 item 6: support runs a person's data export and account deletion from the user's page, with a reason. */
describe("console: a user's data requests", () => {
  it("support asks for the export and the deletion on a phone, each audited", { timeout: 120_000 }, async () => {
    const person = await registeredUser(app.server);
    const page = await signInToConsole(app.browser, app.server.url, support, 360);
    await page.goto(`${app.server.url}/console/users/${person.userId}/show`);
    // issue 46 item 20: nothing pending, nothing to undo
    await page.locator("[data-action=users-delete-account]").waitFor();
    expect(await page.locator("[data-action=users-undo-delete-account]").count()).toBe(0);
    for (const action of ["data-export", "delete-account"]) {
      await page.click(`[data-action=users-${action}]`);
      await page.fill('textarea[name="reason"]', "Asked by letter of 27 November");
      await page.click(`[data-submit=users-${action}]`);
    }
    await expect.poll(() => app.server.db.accountDeletion.count({ where: { userId: person.userId, status: "pending" } })).toBe(1);
    expect(await app.server.db.dataExport.count({ where: { userId: person.userId } })).toBe(1);
    await screenshot(page, "console-user-data-requests-360");
    // pending now: undoing is offered instead of deleting, and undoing brings the deletion back
    await page.locator("[data-action=users-undo-delete-account]").waitFor();
    expect(await page.locator("[data-action=users-delete-account]").count()).toBe(0);
    await page.click("[data-action=users-undo-delete-account]");
    await page.fill('textarea[name="reason"]', "Changed their mind");
    await page.click("[data-submit=users-undo-delete-account]");
    await page.locator("[data-action=users-delete-account]").waitFor();
    expect(await page.locator("[data-action=users-undo-delete-account]").count()).toBe(0);
    expect(await app.server.db.accountDeletion.count({ where: { userId: person.userId, status: "pending" } })).toBe(0);
    const audit = await app.server.db.auditLog.findMany({ where: { staffId: support.staffId }, select: { action: true } });
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(["data_export", "account_deletion"]));
  });
});
