import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { appForThisFile, startAsGuest } from "./app-per-file.ts";
import { SEED_BANNER_TITLES } from "../../server/src/domains/templates/templates.translations.seed.ts";
import { missingKeys, newAppContext, pageShot, renderFirstPreviews, scrollToGallery, storedToken, usedKeys } from "./consumer-app.ts";

// no CHAT_BACKENDS: this install has no chat back end, as a fresh one does
const app = appForThisFile();
const PHONE = { width: 360, height: 740 };
/** MaxMind's stable GeoLite2 entry for a Yandex address in Moscow (as in redirect-by-city.test.ts). */
const MOSCOW = "5.255.255.242";

/** Elements of `selector` whose content (text and icons) reaches outside their own box or is scrolled/clipped inside it. */
async function clippedContent(page: Page, selector: string): Promise<string[]> {
  return page.evaluate(
    (sel) =>
      [...document.querySelectorAll<HTMLElement>(sel)]
        .filter((el) => el.getBoundingClientRect().width > 0)
        .filter((el) => {
          const range = document.createRange();
          range.selectNodeContents(el);
          const content = range.getBoundingClientRect();
          const box = el.getBoundingClientRect();
          return content.left < box.left - 0.5 || content.right > box.right + 0.5 || el.scrollWidth > el.clientWidth + 1;
        })
        .map((el) => `"${el.textContent}" ${Math.round(el.getBoundingClientRect().left)}..${Math.round(el.getBoundingClientRect().right)}`),
    selector,
  );
}

describe("a first visit at 360 px (issue 31)", () => {
  it("the credits chip holds its text in ja and ru; the ko template tabs are not clipped", async () => {
    for (const language of ["ja", "ru", "ko"] as const) {
      const context = await newAppContext(app.browser, { adult: true, viewport: PHONE, language });
      const page = await context.newPage();
      await startAsGuest(page, app.server.url);
      // a balance people really hold: four digits and the word are what overflowed the pill
      const guest = await app.server.db.user.findFirstOrThrow({ where: { loginType: "visitor" }, orderBy: { id: "desc" } });
      await app.server.services.credits.grant({ userId: guest.id, amount: 1250, reason: "test", idempotencyKey: `first-visit:${guest.id}` });
      await page.reload();
      const chip = page.getByTestId("balance");
      await expect.poll(() => chip.getAttribute("data-points")).toBe("1250");
      expect(await clippedContent(page, "[data-testid=balance]")).toEqual([]);
      const header = (await page.locator("header").boundingBox())!;
      const chipBox = (await chip.boundingBox())!;
      expect(chipBox.x + chipBox.width).toBeLessThanOrEqual(header.x + header.width);
      expect(await chip.getAttribute("aria-label")).toMatch(/1250|1,250|1 250/);
      await page.getByTestId("quick-Creative").waitFor();
      // each tab's label lies whole inside its tab
      expect(await clippedContent(page, "[role=tab][data-testid^=quick-]")).toEqual([]);
      await pageShot(page, `first-visit-studio-${language}-360`);
      expect(missingKeys(language, await usedKeys(page))).toEqual([]);
      await context.close();
    }
  }, 240_000);

  it("banner captions are in the visitor's language (English where staff gave none), whole and inside their banner", async () => {
    // staff gave the second banner no Korean caption: Korean visitors see its English one
    const second = await app.server.db.banner.findFirstOrThrow({ where: { title: "New motion templates" } });
    const { ko: _, ...withoutKorean } = SEED_BANNER_TITLES.templates;
    await app.server.db.banner.update({ where: { id: second.id }, data: { titles: withoutKorean } });
    const expected = {
      en: ["Turn a photo into a video", "New motion templates"],
      ja: [SEED_BANNER_TITLES.welcome.ja, SEED_BANNER_TITLES.templates.ja],
      ko: [SEED_BANNER_TITLES.welcome.ko, "New motion templates"],
      ru: [SEED_BANNER_TITLES.welcome.ru, SEED_BANNER_TITLES.templates.ru],
    };
    for (const language of ["en", "ja", "ko", "ru"] as const) {
      const context = await newAppContext(app.browser, { adult: true, viewport: PHONE, language });
      await context.addInitScript(() => localStorage.setItem("reverie_flash_sale_seen", String(Date.now())));
      const page = await context.newPage();
      await page.goto(`${app.server.url}/home`);
      const banner = page.getByTestId("banners").locator("img").first();
      await banner.scrollIntoViewIfNeeded();
      await expect.poll(() => banner.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      // the box has the picture's own shape, so object-fit: cover crops nothing
      const [box, picture] = await banner.evaluate((img: HTMLImageElement) => [img.clientWidth / img.clientHeight, img.naturalWidth / img.naturalHeight]);
      expect(Math.abs(box - picture) / picture).toBeLessThan(0.02);
      const captions = page.getByTestId("banner-caption");
      expect(await captions.allInnerTexts()).toEqual(expected[language]);
      expect(await banner.getAttribute("alt")).toBe(expected[language][0]);
      // "hoto into a video": no caption starts left of its banner or runs out of it, and none is cut inside its band
      expect(await clippedContent(page, "[data-testid=banner-caption]")).toEqual([]);
      const outside = await captions.evaluateAll((els) =>
        els.flatMap((el) => {
          const [c, b] = [el.getBoundingClientRect(), el.parentElement!.getBoundingClientRect()];
          return c.left < b.left - 0.5 || c.right > b.right + 0.5 || c.top < b.top - 0.5 || c.bottom > b.bottom + 0.5 ? [el.textContent] : [];
        }),
      );
      expect(outside).toEqual([]);
      await page.getByTestId("banners").screenshot({ path: path.resolve(`tests/output/screenshots/first-visit-banners-${language}-360.png`) });
      await page.screenshot({ path: path.resolve(`tests/output/screenshots/landing-banners-${language}-360.png`) });
      expect(missingKeys(language, await usedKeys(page))).toEqual([]);
      await context.close();
    }
  }, 120_000);

  it("the gallery shows the templates' loops while nothing is shared, and names a guest by nickname, never 'User N'", async () => {
    const { server } = app;
    // two previews are enough to see
    const templates = await renderFirstPreviews(server, 2);

    const context = await newAppContext(app.browser, { adult: true, viewport: PHONE });
    // the flash-sale popup was already seen today: it would cover the gallery
    await context.addInitScript(() => localStorage.setItem("reverie_flash_sale_seen", String(Date.now())));
    const page = await context.newPage();
    await page.goto(`${server.url}/home`);
    await scrollToGallery(page);
    await page.getByTestId("gallery-example").first().waitFor();
    expect(await page.getByTestId("gallery-example").count()).toBe(2);
    await page.getByTestId("gallery-examples-note").waitFor();
    await page.getByTestId("gallery").screenshot({ path: path.resolve("tests/output/screenshots/first-visit-gallery-examples-360.png") });

    // a guest without a nickname shares a creation: it is named as the app names them
    await startAsGuest(page, server.url);
    const guest = await server.db.user.findFirstOrThrow({ where: { loginType: "visitor" }, orderBy: { id: "desc" } });
    await server.db.generationTask.create({
      data: {
        userId: guest.id,
        mode: "text_to_image",
        engine: "local",
        status: "succeeded",
        cost: 1,
        input: {},
        outputKey: templates[0].coverUrl,
        isPublic: true,
      },
    });
    await page.goto(`${server.url}/home`);
    await scrollToGallery(page);
    const name = `Guest_${guest.uuid.replace(/-/g, "").slice(-6)}`;
    await expect.poll(() => page.getByTestId("gallery-nickname").first().textContent()).toBe(`by ${name}`);
    expect(await page.getByTestId("gallery-examples-note").count()).toBe(0);
    await pageShot(page, "first-visit-gallery-shared-360");
    await context.close();
  }, 240_000);

  it("with no chat back end, the editor and the catalogue say so at the top and Draft is off with the reason", async () => {
    const context = await newAppContext(app.browser, { adult: true, viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${app.server.url}/characterCreatEdit`);
    await page.getByTestId("studio-try-guest").click();
    await expect.poll(() => storedToken(page)).toBeTruthy();
    const notice = page.getByTestId("chat-unavailable");
    await notice.waitFor();
    expect(await notice.innerText()).toBe("Chat is not available on this server yet");
    expect((await notice.boundingBox())!.y).toBeLessThan(PHONE.height / 2);
    await page.getByTestId("character-idea").fill("a barista who reads tarot");
    expect(await page.getByTestId("character-draft").isDisabled()).toBe(true);
    expect(await page.getByTestId("character-draft-note").innerText()).toContain("Drafting needs chat");
    await pageShot(page, "first-visit-editor-no-chat-360");

    // the catalogue: the same notice above the list, and the starter characters with their painted avatars
    await page.goto(`${app.server.url}/chat`);
    await page.getByTestId("chat-new").click();
    const chooser = page.getByTestId("role-chooser");
    await chooser.getByTestId("chat-unavailable").waitFor();
    await chooser.getByTestId("chooser-item").first().waitFor();
    expect(await chooser.getByTestId("chooser-item").count()).toBeGreaterThanOrEqual(4);
    expect(await chooser.getByText("No characters found").count()).toBe(0);
    expect(await chooser.locator("img").count()).toBeGreaterThanOrEqual(4);
    await page.screenshot({ path: path.resolve("tests/output/screenshots/first-visit-catalogue-no-chat-360.png") });
    // a starter's conversation opens with its greeting; the message box is off, and the notice says why
    await chooser.getByTestId("chooser-item").first().locator("p").first().click();
    await page.waitForURL(/\/chat\?c=\d+$/);
    await page.getByTestId("msg-reply").first().waitFor();
    await page.getByTestId("conversation").getByTestId("chat-unavailable").waitFor();
    expect(await page.getByTestId("chat-input").isDisabled()).toBe(true);
    await pageShot(page, "first-visit-conversation-no-chat-360");
    await context.close();
  }, 120_000);

  it("the app asks redirectByCity at start and follows its answer, once per tab", async () => {
    const { server } = app;
    const target = `${server.url}/agreement?from=city`;
    await server.db.siteSetting.create({ data: { key: "cityRedirects", value: [{ country: "RU", city: "Moscow", url: target }] } });
    try {
      const context = await newAppContext(app.browser, { adult: true, viewport: PHONE });
      await context.setExtraHTTPHeaders({ "x-forwarded-for": MOSCOW });
      const page = await context.newPage();
      await page.goto(`${server.url}/home`);
      await page.waitForURL(target);
      // the app loads again there and does not send the visitor on a second time
      await page.getByTestId("open-login").waitFor();
      await page.waitForTimeout(500);
      expect(page.url()).toBe(target);
      await context.close();
    } finally {
      await server.db.siteSetting.delete({ where: { key: "cityRedirects" } });
    }
  }, 60_000);

  it("registers its service worker, which serves the offline page offline and keeps no API answer or media", async () => {
    for (const file of ["sw.js", "offline.html", "manifest.webmanifest"]) expect(fs.existsSync(path.resolve("dist/consumer", file))).toBe(true);
    const context = await app.browser.newContext({ viewport: PHONE, serviceWorkers: "allow" });
    await context.addInitScript(() => localStorage.setItem("reverie_age_confirmed", "1"));
    const page = await context.newPage();
    await page.goto(`${app.server.url}/home`);
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(scope).toBe(`${app.server.url}/`);
    await page.getByTestId("try-guest").click();
    await page.waitForURL(/\/creationStudio$/);
    await page.reload();
    await page.getByTestId("balance").waitFor();
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname);
      return urls;
    });
    expect(cached).toContain("/offline.html");
    expect(cached.filter((u) => u.startsWith("/api/") || u.startsWith("/media/"))).toEqual([]);

    await context.setOffline(true);
    await page.goto(`${app.server.url}/function`).catch(() => null);
    await page.getByTestId("offline-page").waitFor();
    await pageShot(page, "first-visit-offline-360");
    await context.setOffline(false);

    // no install prompt in this browser: the dialog gives the steps
    await page.goto(`${app.server.url}/creationStudio`);
    await page.getByTestId("account-menu").click();
    await page.getByRole("menuitem", { name: "Add to home screen" }).click();
    await page.getByTestId("install-steps").waitFor();
    expect(await page.getByTestId("install-steps").locator("li").count()).toBe(3);
    await pageShot(page, "first-visit-install-steps-360");
    await context.close();
  }, 120_000);
});
