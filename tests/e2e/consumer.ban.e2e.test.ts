import { describe, expect, it } from "vitest";
import { screenshot } from "./browser.ts";
import { newAppContext, storedToken } from "./consumer-app.ts";
import { appForThisFile, startAsGuest } from "./app-per-file.ts";
import { newStaff } from "../staff-utils.ts";

const REASON = "Uploaded a photo of someone without their consent";
/** A phone (issue 29 item 6): every profile of this browser at this size shares one fingerprint. */
const PHONE = { width: 360, height: 780 };

/** Issue 11 item 14 and issue 19: a banned person is told the reason and appeals, not silently logged out. */
describe("consumer app: a banned person", () => {
  const app = appForThisFile();

  it("sees the reason staff gave and the statement of reasons, appeals from the notice, and is signed out", async () => {
    const context = await newAppContext(app.browser, { adult: true, viewport: PHONE });
    await context.addInitScript(() => localStorage.setItem("reverie_flash_sale_seen", String(Date.now())));
    const page = await context.newPage();
    await startAsGuest(page, app.server.url);
    const user = await app.server.db.user.findFirstOrThrow({ where: { loginType: "visitor" }, orderBy: { id: "desc" } });
    const moderator = await newStaff(app.server, ["moderator"]);
    await app.server.services.moderation.ban(moderator.staffId, user.id, REASON);

    // the next page load calls the API, which answers the ban. A background call (the studio's, the bell's unread count)
    // may meet it first and send the page home meanwhile, which Chromium reports as this navigation interrupted or
    // aborted; the stored notice shows on any load either way.
    await page.goto(`${app.server.url}/function`).catch((e: Error) => {
      if (!/interrupted by another navigation|net::ERR_ABORTED/.test(e.message)) throw e;
    });
    const notice = page.getByTestId("ban-notice");
    await notice.waitFor();
    expect(await notice.innerText()).toContain("Sorry, you do not have login permission");
    expect(await page.getByTestId("ban-reason").innerText()).toBe(`Reason given: ${REASON}`);
    // the statement of reasons (issue 19): its ground, decided by a moderator, and the appeal filed right here
    expect(await page.getByTestId("decision-ground").innerText()).toBe("Ground: a breach of our terms");
    expect(await page.getByTestId("decision-automated").innerText()).toBe("Decided by a moderator");
    expect(await storedToken(page)).toBeNull();
    await screenshot(page, "consumer-ban-notice");
    await page.getByTestId("appeal-text").fill("I only uploaded my own photos, please look again.");
    await page.getByTestId("appeal-send").click();
    await page.getByTestId("appeal-status").waitFor();
    const appeal = await app.server.db.appeal.findFirstOrThrow({ where: { decision: { userId: user.id } } });
    expect(appeal).toMatchObject({ status: "open", text: "I only uploaded my own photos, please look again." });
    await screenshot(page, "consumer-ban-notice-appealed");
    await page.getByTestId("ban-close").click();
    await notice.waitFor({ state: "detached" });
    await page.reload();
    await page.getByTestId("try-guest").waitFor();
    expect(await page.getByTestId("ban-notice").count()).toBe(0);
    // the same browser cannot start a new guest account: its device cookie is covered by the ban (issue 19). Who
    // holds the browser now is not known, so it is not shown that account's reason or appeal (issue 29 item 6)
    const users = await app.server.db.user.count();
    await page.getByTestId("try-guest").click();
    await page.getByTestId("ban-notice").waitFor();
    expect(await page.getByTestId("ban-reason").innerText()).toBe("No reason was recorded.");
    expect(await page.getByTestId("ban-notice").innerText()).not.toContain(REASON);
    expect(await page.getByTestId("appeal-text").count()).toBe(0);
    expect(await app.server.db.user.count()).toBe(users);
    await screenshot(page, "consumer-ban-device-refused");
    await context.close();
  });

  it("does not stop two fresh phones of the same kind (same address, browser and screen), nor show them the notice", async () => {
    const banned = await app.server.db.ban.findFirstOrThrow({ where: { liftedAt: null }, orderBy: { id: "desc" } });
    for (const n of [1, 2]) {
      const context = await newAppContext(app.browser, { adult: true, viewport: PHONE });
      await context.addInitScript(() => localStorage.setItem("reverie_flash_sale_seen", String(Date.now())));
      const page = await context.newPage();
      await startAsGuest(page, app.server.url);
      expect(await page.getByTestId("ban-notice").count()).toBe(0);
      expect(await page.content()).not.toContain(REASON);
      if (n === 1) await screenshot(page, "consumer-fresh-phone-after-ban");
      await context.close();
    }
    // a moderator sees them as flagged beside the ban, to judge
    expect(await app.server.db.banEvasionFlag.count({ where: { banId: banned.id } })).toBeGreaterThanOrEqual(2);
  });
});
