import { beforeAll, describe, expect, it } from "vitest";
import { newStaff, type StaffCredentials } from "../staff-utils.ts";
import { REWARDS_SETTING } from "../../server/src/contract/rewards.ts";
import { screenshot } from "./browser.ts";
import { signInToConsole } from "./console-build.ts";
import { consoleForThisFile } from "./console-per-file.ts";

const app = consoleForThisFile();
let admin: StaffCredentials;

beforeAll(async () => {
  admin = await newStaff(app.server, ["admin"]);
}, 300_000);

/** Issue 32 item 4: staff set the gifts, see the invitations and the figures per day, on a phone-size screen. */
describe("console: gifts", () => {
  it("sets the gifts, lists referrals with their refusal, and shows the day's figures", { timeout: 120_000 }, async () => {
    const [inviter, invitee] = await Promise.all(
      ["a", "b"].map(async () => (await app.server.http.post("/api/login/visitor").expect(200)).body.data.user_info.id as number),
    );
    await app.server.db.referral.create({ data: { inviterId: inviter, inviteeId: invitee, status: "refused", refusal: "same_device", decidedAt: new Date() } });

    const page = await signInToConsole(app.browser, app.server.url, admin, 360);
    await page.goto(`${app.server.url}/console/site-settings/${REWARDS_SETTING}`);
    await page.locator('input[name="value.checkInCredits"]').fill("5");
    await page.locator('button[type="submit"]').click();
    await expect
      .poll(async () => (await app.server.db.siteSetting.findUnique({ where: { key: REWARDS_SETTING } }))?.value, { timeout: 15_000 })
      .toMatchObject({
        checkInCredits: 5,
      });
    await page.goto(`${app.server.url}/console/site-settings/${REWARDS_SETTING}`);
    await page.locator('input[name="value.checkInCredits"]').waitFor();
    await screenshot(page, "console-rewards-setting");

    await page.goto(`${app.server.url}/console/referrals`);
    await page.locator('.RaDatagrid-table td:has-text("same_device")').waitFor();
    await screenshot(page, "console-referrals");

    await page.goto(`${app.server.url}/console/reward-days`);
    await page.locator(".RaDatagrid-table tbody tr").first().waitFor();
    expect(await page.innerText(".RaDatagrid-table thead")).toContain("Referrals refused");
    await screenshot(page, "console-reward-days");

    // who got daily gifts from where (decision 345), on a phone-size screen
    await app.server.db.checkIn.create({
      data: { userId: invitee, localDate: new Date(), credits: 2, ip: "203.0.113.7", network: "203.0.113.0/24", fingerprints: ["f00d00d00d00d00d"] },
    });
    await page.goto(`${app.server.url}/console/check-ins`);
    await page.locator('.RaDatagrid-table td:has-text("203.0.113.0/24")').waitFor();
    expect(await page.innerText(".RaDatagrid-table thead")).toContain("Network");
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, "console-check-ins");
    await page.close();
  });
});
