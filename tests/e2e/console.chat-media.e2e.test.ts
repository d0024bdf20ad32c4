import { beforeAll, describe, expect, it } from "vitest";
import { newStaff, type StaffCredentials } from "../staff-utils.ts";
import { CHAT_MEDIA_SETTING } from "../../server/src/contract/chat.ts";
import { screenshot } from "./browser.ts";
import { signInToConsole } from "./console-build.ts";
import { consoleForThisFile } from "./console-per-file.ts";

const app = consoleForThisFile();
let admin: StaffCredentials;

beforeAll(async () => {
  admin = await newStaff(app.server, ["admin"]);
}, 300_000);

/** Issue 50 item 5: operators set pictures in chat (price, drafts, channels, workflows) on a phone-size screen. */
describe("console: pictures in chat", () => {
  it("sets the price of a picture and turns drafts off; the server stores the whole checked setting", { timeout: 120_000 }, async () => {
    const page = await signInToConsole(app.browser, app.server.url, admin, 360);
    await page.goto(`${app.server.url}/console/site-settings`);
    await page.locator('[data-action="open-chat-media"]').click();
    await page.locator('input[name="value.price.image"]').fill("3");
    await page.locator('input[name="value.off_channels"]').fill("tiktok-7, vk-2");
    await page.locator('input[name="value.drafts"]').click();
    await page.locator('input[name="value.workflows.video.comfyui"]').fill("wan-i2v");
    await page.locator('button[type="submit"]').click();
    await expect
      .poll(async () => (await app.server.db.siteSetting.findUnique({ where: { key: CHAT_MEDIA_SETTING } }))?.value, { timeout: 15_000 })
      .toMatchObject({ price: { image: 3, video: null }, drafts: false, off_channels: ["tiktok-7", "vk-2"], workflows: { video: { comfyui: "wan-i2v" } } });
    await page.goto(`${app.server.url}/console/site-settings/${CHAT_MEDIA_SETTING}`);
    await page.locator('input[name="value.price.image"]').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, "console-chat-media-setting");
    await page.close();
  });
});
