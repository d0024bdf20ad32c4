import { describe, expect, it } from "vitest";
import { screenshot } from "./browser.ts";
import { newAppContext, storedToken } from "./consumer-app.ts";
import { appForThisFile, startAsGuest } from "./app-per-file.ts";
import { newStaff } from "../staff-utils.ts";

const REASON = "Uploaded a photo of someone without their consent";

/** Issue 11 item 14 and issue 19: a banned person is told the reason and appeals, not silently logged out. */
describe("consumer app: a banned person", () => {
  const app = appForThisFile();

  it("sees the reason staff gave and the statement of reasons, appeals from the notice, and is signed out", async () => {
    const context = await newAppContext(app.browser, { adult: true, viewport: { width: 390, height: 844 } });
    await context.addInitScript(() => localStorage.setItem("reverie_flash_sale_seen", String(Date.now())));
    const page = await context.newPage();
    await startAsGuest(page, app.server.url);
    const user = await app.server.db.user.findFirstOrThrow({ where: { loginType: "visitor" }, orderBy: { id: "desc" } });
    const moderator = await newStaff(app.server, ["moderator"]);
    await app.server.services.moderation.ban(moderator.staffId, user.id, REASON);

    // the next page load calls the API, which answers the ban. A background call of the studio may meet it first and
    // send the page home meanwhile (interrupting this navigation); the stored notice shows on any load either way.
    await page.goto(`${app.server.url}/function`).catch((e: Error) => {
      if (!/interrupted by another navigation/.test(e.message)) throw e;
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
    // the same browser cannot start a new guest account: the device is covered by the ban, and says so (issue 19)
    const users = await app.server.db.user.count();
    await page.getByTestId("try-guest").click();
    await page.getByTestId("ban-notice").waitFor();
    expect(await page.getByTestId("ban-reason").innerText()).toBe(`Reason given: ${REASON}`);
    expect(await app.server.db.user.count()).toBe(users);
    await screenshot(page, "consumer-ban-device-refused");
    await context.close();
  });
});
