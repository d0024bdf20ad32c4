import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { localeText, missingKeys, missingTexts, newAppContext, pageShot, switchLanguage, usedKeys } from "./consumer-app.ts";
import { appForThisFile, startAsGuest } from "./app-per-file.ts";
import { sharedCreation } from "../generation-utils.ts";

const NARROW = { width: 360, height: 740 };
const LANGUAGES = ["en", "ja", "ko", "ru"] as const;

/** Issue 32 item 7: the bell in the header at 360 px (the header is tightest in ru), its panel, and a line's link. */
describe("consumer app: the notifications bell at 360 px", () => {
  const app = appForThisFile();
  const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

  /** Closes the bell's panel, so the header's language menu can be reached. */
  const closePanel = async (page: Page) => {
    await page.keyboard.press("Escape");
    await page.getByTestId("notifications-panel").waitFor({ state: "detached" });
  };

  // one account and one set of lines; every language is checked on the same screens by switching in place
  it("the badge counts unread lines, the panel names them, a line opens the liked item and is read; the digest turns on and its email link off (each screen in every language)", async () => {
    const context = await newAppContext(app.browser, { adult: true, language: "en", viewport: NARROW });
    const page = await context.newPage();
    await startAsGuest(page, app.server.url);
    const db = app.server.db;
    const owner = (await db.session.findFirstOrThrow({ where: { userId: { not: null } }, orderBy: { id: "desc" } })).userId!;
    const item = await sharedCreation(db, owner);
    // three people like it (a named account, then two guests), one tips nothing: one line, "3 people"; a second item by a named one
    const named = await db.user.create({ data: { nickname: "Mika", role: "user", loginType: "registered" } });
    const guests = await Promise.all([1, 2].map(() => db.user.create({ data: {} })));
    const record = app.server.services.notifications.record;
    await db.$transaction(async (tx) => {
      for (const who of [named, ...guests]) await record(tx, { userId: owner, kind: "like", subjectId: item.id, actorId: who.id });
      await record(tx, { userId: owner, kind: "remix", subjectId: item.id, actorId: named.id });
    });

    // this visitor has seen today's flash sale: it would cover the panel and the item the line opens
    await page.evaluate(() => localStorage.setItem("reverie_flash_sale_seen", String(Date.now())));
    await page.goto(`${app.server.url}/function`);
    await page.locator('[data-testid="bell"][data-unread="2"]').waitFor({ timeout: 15_000 });
    const panel = page.getByTestId("notifications-panel");
    for (const language of LANGUAGES) {
      if (language !== "en") await switchLanguage(page, language);
      const bell = (await page.getByTestId("bell").boundingBox())!;
      expect(bell.x + bell.width, language).toBeLessThanOrEqual(NARROW.width);
      expect(await sideways(page), language).toBeLessThanOrEqual(0);
      await pageShot(page, `bell-${language}`);

      await page.getByTestId("bell").click();
      await panel.locator('[data-testid^="notification-"]').first().waitFor();
      expect(await panel.locator('[data-testid^="notification-"]').count(), language).toBe(2);
      const box = (await panel.boundingBox())!;
      expect(box.x, language).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, language).toBeLessThanOrEqual(NARROW.width);
      await page.screenshot({ path: `tests/output/screenshots/bell-panel-${language}.png` });
      const keys = (await usedKeys(page)).filter((k) => k.startsWith("notifications.") || k.startsWith("bell."));
      expect(keys.length).toBeGreaterThan(3);
      expect(missingKeys(language, keys)).toEqual([]);
      expect(await missingTexts(page)).toEqual([]);
      if (language !== "ru") await closePanel(page);
    }

    // the like line (the oldest, listed second) leads to the item and is read
    const likeLine = await db.notification.findFirstOrThrow({ where: { userId: owner, kind: "like" } });
    await panel.getByTestId(`notification-${likeLine.id}`).click();
    await page.waitForURL(new RegExp(`/home\\?item=${item.id}$`));
    await page.getByTestId("gallery-item").waitFor();
    await page.locator('[data-testid="bell"][data-unread="1"]').waitFor();
    expect((await db.notification.findUniqueOrThrow({ where: { id: likeLine.id } })).readAt).not.toBeNull();

    // the account saves an email, turns the digest on, and the email's link turns it off without signing in
    await db.user.update({ where: { id: owner }, data: { email: `bell-${owner}@example.com`, loginType: "registered", role: "user" } });
    await page.goto(`${app.server.url}/account#notifications`);
    const digestSwitch = page.getByTestId("digest-switch").locator("input");
    await expect.poll(() => digestSwitch.isEnabled(), { timeout: 15_000 }).toBe(true);
    await digestSwitch.check();
    await expect.poll(async () => (await db.notificationSetting.findUnique({ where: { userId: owner } }))?.emailDigest).toBe(true);
    for (const language of [...LANGUAGES].reverse()) {
      if (language !== "ru") await switchLanguage(page, language);
      expect(await sideways(page), language).toBeLessThanOrEqual(0);
      await page.getByTestId("digest-section").screenshot({ path: `tests/output/screenshots/digest-${language}.png` });
    }
    const token = app.server.services.notificationDigests.tokenOf(owner);
    const signedOut = await newAppContext(app.browser, { adult: true, language: "en", viewport: NARROW });
    const mailLink = await signedOut.newPage();
    await mailLink.goto(`${app.server.url}/unsubscribe?token=${encodeURIComponent(token)}`);
    await mailLink.getByTestId("unsubscribe-page").getByRole("alert").waitFor();
    expect((await db.notificationSetting.findUniqueOrThrow({ where: { userId: owner } })).emailDigest).toBe(false);
    for (const language of LANGUAGES) {
      if (language !== "en") await switchLanguage(mailLink, language);
      await pageShot(mailLink, `unsubscribe-${language}`);
      expect(
        missingKeys(
          language,
          (await usedKeys(mailLink)).filter((k) => k.startsWith("notifications.")),
        ),
      ).toEqual([]);
    }
    await signedOut.close();
    await context.close();
  }, 120_000);

  it("a creator is named by their page's title in the bell and the gallery, never as Guest_… (in every language)", async () => {
    // issue 46 item 15: "Alice Creates", not the account's unset nickname ("Guest_4c8164")
    const db = app.server.db;
    const creator = await db.user.create({ data: { role: "creator", loginType: "registered" } });
    await db.creatorPage.create({ data: { userId: creator.id, homeLink: "AliceNamed", title: "Alice Creates" } });
    const theirs = await sharedCreation(db, creator.id);
    const context = await newAppContext(app.browser, { adult: true, language: "en", viewport: NARROW });
    const page = await context.newPage();
    await startAsGuest(page, app.server.url);
    const owner = (await db.session.findFirstOrThrow({ where: { userId: { not: null } }, orderBy: { id: "desc" } })).userId!;
    const item = await sharedCreation(db, owner);
    await db.$transaction((tx) => app.server.services.notifications.record(tx, { userId: owner, kind: "like", subjectId: item.id, actorId: creator.id }));
    await page.evaluate(() => localStorage.setItem("reverie_flash_sale_seen", String(Date.now())));
    await page.goto(`${app.server.url}/function`);
    await page.locator('[data-testid="bell"][data-unread="1"]').waitFor({ timeout: 15_000 });
    // the item's dialog covers the header's language menu: it is closed before the next language and opened afresh
    for (const language of LANGUAGES) {
      if (language !== "en") await switchLanguage(page, language);
      await page.getByTestId("bell").click();
      const line = page.getByTestId("notifications-panel").locator('[data-testid^="notification-"]').first();
      await line.waitFor();
      expect(await line.innerText(), language).toContain("Alice Creates");
      expect(await line.innerText(), language).not.toContain("Guest_");
      await page.screenshot({ path: `tests/output/screenshots/bell-creator-named-${language}.png` });
      await closePanel(page);

      await page.goto(`${app.server.url}/home?item=${theirs.id}`);
      const dialog = page.getByTestId("gallery-item");
      await dialog.waitFor();
      await expect.poll(() => dialog.locator("h2").innerText()).toBe(localeText(language, "gallery.by").replace("{{name}}", "Alice Creates"));
      expect(await sideways(page), language).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `tests/output/screenshots/gallery-creator-named-${language}.png` });
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
    }
    await context.close();
  }, 90_000);
});
