import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { REWARDS_SETTING } from "../../server/src/contract/rewards.ts";
import { photo } from "../fixtures/media.ts";
import { staffMember } from "../staff-utils.ts";
import { screenshot } from "./browser.ts";
import { registeredUser } from "../training-utils.ts";
import { localeText, missingKeys, missingTexts, newAppContext, pageShot, signedInPhone, storedToken, usedKeys } from "./consumer-app.ts";
import { appForThisFile, startAsGuest } from "./app-per-file.ts";

const NARROW = { width: 360, height: 740 };

/** Issue 32 item 4: the daily gift, the invitation link and the credit history in the account area, at 360 px. */
describe("consumer app: gifts and invitations at 360 px", () => {
  const app = appForThisFile();
  const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

  for (const language of ["en", "ja"] as const) {
    it(`${language}: a guest is asked to save the account; a saved one checks in once, copies its link, sees the gift in its history`, async () => {
      // a just-saved account, and one browser and address for both languages: the anti-farming rules (decision 345) are
      // the API tests'; here the earlier language's gift is a day old
      const value = { checkInCredits: 5, checkInMinAccountHours: 0, referralInviterCredits: 30, referralInviteeCredits: 20 };
      await app.server.db.siteSetting.upsert({ where: { key: REWARDS_SETTING }, create: { key: REWARDS_SETTING, value }, update: { value } });
      await app.server.db.checkIn.updateMany({ data: { createdAt: new Date(Date.now() - 25 * 3_600_000) } });
      const context = await newAppContext(app.browser, { adult: true, language, viewport: NARROW });
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.server.url });
      const page = await context.newPage();
      await startAsGuest(page, app.server.url);
      const token = (await storedToken(page))!;
      await page.goto(`${app.server.url}/account#rewards`);
      await page
        .getByTestId("check-in-save")
        .waitFor({ timeout: 15_000 })
        .catch(async (e) => {
          await pageShot(page, `rewards-debug-${language}`);
          throw e;
        });
      expect(await page.getByTestId("invite").count()).toBe(0);

      // the guest saves the account (as an email sign-in does): the gift and the link are its own now
      const userId = (await app.server.db.session.findFirstOrThrow({ where: { userId: { not: null } }, orderBy: { id: "desc" } })).userId!;
      await app.server.db.user.update({ where: { id: userId }, data: { email: `gifts-${userId}@example.com`, loginType: "registered", role: "user" } });
      await page.reload();
      await page.getByTestId("check-in").click();
      await page.locator('[data-testid="daily-gift"][data-checked-in="1"]').waitFor();
      await page.locator('[data-testid="credit-movement"][data-reason="daily_check_in"]').waitFor();
      expect((await app.server.db.user.findUniqueOrThrow({ where: { id: userId } })).points).toBe(5);
      // the day is counted in the browser's zone, stored at the first check-in
      expect((await app.server.db.user.findUniqueOrThrow({ where: { id: userId } })).timeZone).toBeTruthy();
      expect(await page.getByTestId("check-in").isDisabled()).toBe(true);

      await page.getByTestId("invite-copy").click();
      const code = (await app.server.db.referralCode.findUniqueOrThrow({ where: { userId } })).code;
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${app.server.url}/home?ref=${code}`);
      expect(await sideways(page)).toBeLessThanOrEqual(0);
      await pageShot(page, `rewards-${language}`);
      expect(token).toBeTruthy();

      const keys = (await usedKeys(page)).filter((k) => k.startsWith("rewards."));
      expect(keys.length).toBeGreaterThan(5);
      expect(missingKeys(language, keys)).toEqual([]);
      expect(await missingTexts(page)).toEqual([]);
      await context.close();
    }, 120_000);
  }

  it("names a membership join, a paid-message unlock and the refund after the creator's ban each in its own words, in every language", async () => {
    // issue 46 item 7: the fan's real movements, through the API: join (−10), unlock (−5), the creator banned (refund)
    const creator = await registeredUser(app.server);
    const post = (who: { token: string }, path: string, body: Record<string, unknown>) =>
      app.server.http.post(path).set("token", who.token).send(body).expect(200);
    await post(creator, "/api/Subscribe/createPage", { home_link: "LedgerWords", title: "Ledger Words", membership_price: 10 });
    const key = `u/${creator.userId}/results/ledger-words.jpg`;
    await app.server.services.storage.put(key, await photo(200, 260), "image/jpeg");
    const task = await app.server.db.generationTask.create({
      data: { userId: creator.userId, mode: "text_to_image", engine: "local", status: "succeeded", cost: 1, input: {}, outputKey: key },
    });
    const item = (await post(creator, "/api/Subscribe/publishItem", { task_id: task.id, visibility: "members" })).body.data.id as number;
    const fan = await registeredUser(app.server, 40);
    await post(fan, "/api/Subscribe/joinMembership", { home_link: "LedgerWords" });
    const first = (await post(fan, "/api/Messages/send", { home_link: "LedgerWords", body: "Hi", idempotency_key: "ledger-words-1" })).body.data;
    const locked = (
      await post(creator, "/api/Messages/send", {
        thread_id: first.thread_id,
        body: "For you",
        library_item_id: item,
        price: 5,
        idempotency_key: "ledger-words-2",
      })
    ).body.data;
    await post(fan, "/api/Messages/unlock", { message_id: locked.id });
    const moderator = await staffMember(app.server, ["moderator"]);
    await app.server.http.post(`/admin/api/users/${creator.userId}/ban`).set("token", moderator.token).send({ reason: "Fraud" }).expect(200);
    const reasons = (await app.server.db.ledgerEntry.findMany({ where: { userId: fan.userId }, orderBy: { id: "desc" } })).map((e) => e.reason);
    expect(reasons.slice(0, 3)).toEqual(["creator_membership_refund", "message_unlock", "creator_membership"]);

    for (const language of ["en", "ja", "ko", "ru"] as const) {
      const { context, page } = await signedInPhone(app.browser, fan, language);
      await page.goto(`${app.server.url}/account#rewards`);
      const row = (reason: string) => page.locator(`[data-testid="credit-movement"][data-reason="${reason}"] p`).first();
      await row("creator_membership_refund").waitFor({ timeout: 15_000 });
      const shown = await Promise.all(reasons.slice(0, 3).map((r) => row(r).innerText()));
      expect(shown).toEqual(reasons.slice(0, 3).map((r) => localeText(language, `rewards.history.label.${r}`)));
      expect(new Set(shown).size).toBe(3);
      expect(await sideways(page)).toBeLessThanOrEqual(0);
      await page.getByTestId("credit-history").scrollIntoViewIfNeeded();
      await screenshot(page, `credit-history-kinds-${language}-360`);
      await context.close();
    }
  }, 180_000);

  it("a link's code is kept from the landing URL and recorded when the visitor's account starts", async () => {
    const inviter = await app.server.db.user.create({ data: { email: `inviter-${Date.now()}@example.com`, loginType: "registered", role: "user" } });
    await app.server.db.referralCode.create({ data: { userId: inviter.id, code: "INVITE42" } });
    const context = await newAppContext(app.browser, { adult: true, language: "en", viewport: NARROW });
    const page = await context.newPage();
    await page.goto(`${app.server.url}/home?ref=INVITE42`);
    await page.getByTestId("try-guest").click();
    await page.waitForURL(/\/creationStudio$/);
    await expect.poll(() => app.server.db.referral.count({ where: { inviterId: inviter.id } }), { timeout: 15_000 }).toBe(1);
    await context.close();
  });
});
