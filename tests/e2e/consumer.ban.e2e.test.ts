import { describe, expect, it } from "vitest";
import { screenshot } from "./browser.ts";
import { newAppContext, storedToken } from "./consumer-app.ts";
import { appForThisFile, startAsGuest } from "./app-per-file.ts";
import { newStaff } from "../staff-utils.ts";

const REASON = "Uploaded a photo of someone without their consent";

/** Issue 11 item 14: a banned person is told the reason and how to appeal, not silently logged out. */
describe("consumer app: a banned person", () => {
  const app = appForThisFile();

  it("sees the reason staff gave and where to appeal, and is signed out", async () => {
    const context = await newAppContext(app.browser, { adult: true, viewport: { width: 390, height: 844 } });
    await context.addInitScript(() => localStorage.setItem("reverie_flash_sale_seen", String(Date.now())));
    const page = await context.newPage();
    await startAsGuest(page, app.server.url);
    const user = await app.server.db.user.findFirstOrThrow({ where: { loginType: "visitor" }, orderBy: { id: "desc" } });
    const moderator = await newStaff(app.server, ["moderator"]);
    await app.server.services.moderation.ban(moderator.staffId, user.id, REASON);

    await page.getByTestId("bottom-results").click();
    await page.waitForURL(/\/home$/);
    const notice = page.getByTestId("ban-notice");
    await notice.waitFor();
    expect(await notice.innerText()).toContain("Sorry, you do not have login permission");
    expect(await page.getByTestId("ban-reason").innerText()).toBe(`Reason given: ${REASON}`);
    expect(await page.getByTestId("ban-appeal").innerText()).toContain("you can appeal");
    expect(await page.getByTestId("ban-appeal-email").getAttribute("href")).toContain(encodeURIComponent(user.uuid));
    expect(await storedToken(page)).toBeNull();
    await screenshot(page, "consumer-ban-notice");
    await page.getByTestId("ban-close").click();
    await notice.waitFor({ state: "detached" });
    await page.reload();
    await page.getByTestId("try-guest").waitFor();
    expect(await page.getByTestId("ban-notice").count()).toBe(0);
    await context.close();
  });
});
