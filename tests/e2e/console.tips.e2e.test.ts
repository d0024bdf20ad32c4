import { beforeAll, describe, expect, it } from "vitest";
import { newStaff, type StaffCredentials } from "../staff-utils.ts";
import { registeredUser } from "../training-utils.ts";
import { screenshot } from "./browser.ts";
import { signInToConsole } from "./console-build.ts";
import { consoleForThisFile } from "./console-per-file.ts";

const app = consoleForThisFile();
let support: StaffCredentials;
let creator: { token: string; userId: number };
let fan: { token: string; userId: number };
let tipId: number;

beforeAll(async () => {
  support = await newStaff(app.server, ["support"]);
  creator = await registeredUser(app.server);
  await app.server.http.post("/api/Subscribe/createPage").set("token", creator.token).send({ home_link: "AylaTipped", title: "Ayla Rose" }).expect(200);
  fan = await registeredUser(app.server, 100);
  const tip = { home_link: "AylaTipped", amount: 40, message: "Bought with a stolen card", idempotency_key: "console-tip-1" };
  tipId = (await app.server.http.post("/api/Subscribe/tip").set("token", fan.token).send(tip).expect(200)).body.data.id;
}, 300_000);

/** Issue 32 item 5: support reverses a fraudulent tip from the console; the fan is refunded, the creator's earning taken back. */
describe("console: tips", () => {
  it("support reverses a tip with a reason, at 360 px", { timeout: 120_000 }, async () => {
    const page = await signInToConsole(app.browser, app.server.url, support);
    await page.setViewportSize({ width: 360, height: 780 });
    await page.goto(`${app.server.url}/console/tips`);
    await page.waitForSelector('.RaDatagrid-table td:has-text("Bought with a stolen card")');
    await screenshot(page, "console-tips-360");
    await page.click(".RaDatagrid-table tbody tr >> nth=0 >> [data-action=tips-reverse]");
    await page.waitForSelector("[data-intro=tips-reverse]");
    expect(await page.innerText("[data-intro=tips-reverse]")).toContain("the fan gets 40 credits back");
    await page.fill('textarea[name="reason"]', "Chargeback on the fan's card");
    await screenshot(page, "console-tips-reverse-dialog-360");
    await page.click("[data-submit=tips-reverse]");
    await expect.poll(async () => (await app.server.db.creatorTip.findUniqueOrThrow({ where: { id: tipId } })).status).toBe("reversed");
    expect([
      (await app.server.db.user.findUniqueOrThrow({ where: { id: fan.userId } })).points,
      (await app.server.db.user.findUniqueOrThrow({ where: { id: creator.userId } })).points,
    ]).toEqual([100, 0]);
    expect(await app.server.db.auditLog.count({ where: { resource: "CreatorTip", resourceId: String(tipId) } })).toBe(1);
    await page.goto(`${app.server.url}/console/tips/${tipId}/show`);
    await page.waitForSelector('text="Chargeback on the fan\'s card"');
    await screenshot(page, "console-tip-reversed-360");
    await page.close();
  });
});
