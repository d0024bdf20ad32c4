import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { photo } from "../fixtures/media.ts";
import { registeredUser } from "../training-utils.ts";
import { screenshot } from "./browser.ts";
import { appForThisFile, startAsGuest } from "./app-per-file.ts";
import { missingTexts, newAppContext, scrollToGallery, signedInPhone } from "./consumer-app.ts";

const LANGUAGES = ["en", "ja", "ko", "ru"] as const;
const overflows = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);

/**
 * Issue 32 item 3 at 360 px (docs/decisions/309): a saved account subscribes to a creator from a gallery item, and the
 * gallery's "Subscriptions" tab shows that creator's shared creation and, locked, a members-only library item.
 */
describe("subscribing to creators from the gallery, and the Subscriptions feed", () => {
  const app = appForThisFile();

  for (const language of LANGUAGES) {
    it(`${language}: subscribe from a gallery item, then read the feed with a members-only item locked`, async () => {
      const { db, services } = app.server;
      const creator = await registeredUser(app.server);
      const homeLink = `Nova${language}`;
      const page0 = await db.creatorPage.create({ data: { userId: creator.userId, homeLink, title: `Nova ${language.toUpperCase()}` } });
      const [sharedKey, lockedKey] = [`media/${creator.userId}/shared.jpg`, `media/${creator.userId}/locked.jpg`];
      for (const key of [sharedKey, lockedKey]) await services.storage.put(key, await photo(600, 800), "image/jpeg");
      const task = (data: { outputKey: string; isPublic: boolean }) =>
        db.generationTask.create({
          data: { userId: creator.userId, mode: "text_to_image", engine: "local", status: "succeeded", cost: 1, input: {}, ...data },
        });
      const shared = await task({ outputKey: sharedKey, isPublic: true });
      const locked = await task({ outputKey: lockedKey, isPublic: false });
      await db.creatorLibraryItem.create({ data: { creatorPageId: page0.id, taskId: locked.id, visibility: "members" } });

      const fan = await registeredUser(app.server);
      const { context, page } = await signedInPhone(app.browser, fan, language);
      await page.goto(`${app.server.url}/home`);
      await scrollToGallery(page);
      await page.getByTestId(`gallery-open-${shared.id}`).click();
      const dialog = page.getByTestId("gallery-item");
      await dialog.getByTestId("gallery-subscribe").click();
      await dialog.locator('[data-testid="gallery-subscribe"][aria-pressed="true"]').waitFor();
      expect(await db.subscription.count({ where: { creatorPageId: page0.id, userId: fan.userId, active: true } })).toBe(1);
      await screenshot(page, `follows-gallery-item-${language}-360`);
      await page.keyboard.press("Escape");

      await page.getByTestId("gallery-tab-subscriptions").click();
      await expect.poll(() => page.getByTestId("feed-entry").count()).toBe(2);
      await page.locator('[data-testid="feed-entry"][data-locked="true"] [data-testid="library-locked"]').waitFor();
      // the members-only file is named nowhere on the page
      expect(await page.content()).not.toContain("locked.jpg");
      await page.getByTestId("feed").scrollIntoViewIfNeeded();
      expect(await overflows(page)).toBe(false);
      expect(await missingTexts(page)).toEqual([]);
      await screenshot(page, `follows-feed-${language}-360`);

      // the feed's creator name opens the page, whose subscriber count is the real one
      await page.getByTestId("feed-creator").first().click();
      await page.waitForURL(new RegExp(`/${homeLink}$`));
      await expect.poll(() => page.getByTestId("creator-subscribers").innerText()).toMatch(/1/);
      await context.close();
    }, 120_000);
  }

  it("a guest sees the gallery, and the Subscriptions tab asks to save the account", async () => {
    const context = await newAppContext(app.browser, { adult: true, language: "en", viewport: { width: 360, height: 780 } });
    await context.addInitScript(() => localStorage.setItem("reverie_flash_sale_seen", String(Date.now())));
    const page = await context.newPage();
    await startAsGuest(page, app.server.url);
    await page.goto(`${app.server.url}/home`);
    await scrollToGallery(page);
    await page.getByTestId("gallery-tab-subscriptions").click();
    await page.getByTestId("feed-guest").waitFor();
    await page.getByTestId("feed-guest").scrollIntoViewIfNeeded();
    await screenshot(page, "follows-feed-guest-en-360");
    await page.getByTestId("feed-sign-in").click();
    await page.getByRole("dialog").waitFor();
    await context.close();
  }, 60_000);
});
