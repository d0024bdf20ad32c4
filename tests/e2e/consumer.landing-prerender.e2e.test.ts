import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import { screenshot } from "./browser.ts";
import { newAppContext, type AppOptions } from "./consumer-app.ts";
import { appForThisFile } from "./app-per-file.ts";

const LANGUAGES = ["en", "ja", "ko", "ru"] as const;
const PHONE = { width: 360, height: 740 };
const app = appForThisFile();

type Tree = { [k: string]: string | Tree };
const home = (language: string) =>
  (JSON.parse(fs.readFileSync(path.resolve(`consumer/src/i18n/locales/${language}.json`), "utf8")) as Tree).home as Record<string, string>;

/** A page on which no script of the app's bundle runs: only index.html and its inline script. */
async function withoutAppScripts(context: BrowserContext): Promise<Page> {
  await context.route(/\/assets\/.*\.js$/, (route) => route.abort());
  return context.newPage();
}

async function heroBox(page: Page) {
  return page.locator("h1").evaluate((h1) => {
    const r = h1.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height, text: (h1 as HTMLElement).innerText };
  });
}

/** Issue 18: /home's headline comes from index.html (docs/decisions/213), in the visitor's language, before any script. */
describe("consumer app: the landing prerendered into index.html", () => {
  for (const language of LANGUAGES) {
    it(`${language}: the hero shows in the stored language with the app's scripts blocked, at 360 px`, async () => {
      const options: AppOptions = { adult: true, language, viewport: PHONE };
      const context = await newAppContext(app.browser, options);
      const page = await withoutAppScripts(context);
      await page.goto(`${app.server.url}/home`);
      const texts = home(language);
      await expect.poll(() => page.locator("h1").textContent()).toBe(`${texts.titleStart} ${texts.titleAccent}`);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(language);
      expect(await page.getByText(texts.tryFree, { exact: true }).count()).toBe(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
      await screenshot(page, `consumer-landing-prerendered-${language}-360`);
      await context.close();
    });
  }

  it("a visitor with a stored session sees the signed-in button text; an unknown stored language falls back to English", async () => {
    const context = await newAppContext(app.browser, { adult: true, viewport: PHONE });
    await context.addInitScript(() => {
      localStorage.setItem("reverie_token", "stored-session");
      localStorage.setItem("reverie_language", "xx");
    });
    const page = await withoutAppScripts(context);
    await page.goto(`${app.server.url}/`);
    await page.locator("h1").waitFor();
    expect(await page.getByText(home("en").startCreating, { exact: true }).count()).toBe(1);
    expect(await page.getByText(home("en").tryFree, { exact: true }).count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("en");
    await context.close();
  });

  it("other routes do not show it", async () => {
    const context = await newAppContext(app.browser, { adult: true, language: "ja" });
    const page = await withoutAppScripts(context);
    for (const route of ["/creationStudio", "/some-creator", "/home/extra", "/chat"]) {
      await page.goto(`${app.server.url}${route}`);
      expect(await page.locator("#root").innerHTML(), route).toBe("");
    }
    await context.close();
  });

  for (const viewport of [PHONE, { width: 1280, height: 800 }]) {
    it(`${viewport.width} px: React takes the page over in place: one h1, where the prerendered one was, and live buttons`, async () => {
      const blocked = await newAppContext(app.browser, { adult: true, language: "ko", viewport });
      const prerendered = await withoutAppScripts(blocked);
      await prerendered.goto(`${app.server.url}/home`);
      const before = await heroBox(prerendered);
      await blocked.close();

      const context = await newAppContext(app.browser, { adult: true, language: "ko", viewport });
      const page = await context.newPage();
      await page.goto(`${app.server.url}/home`);
      await page.getByTestId("try-guest").waitFor();
      expect(await page.locator("h1").count()).toBe(1);
      expect(await heroBox(page)).toEqual(before);
      await page.getByTestId("home-pricing").click();
      await page.getByTestId("buy-credits").waitFor();
      await context.close();
    });
  }

  it("the largest paint is the prerendered headline: it paints before the app's scripts have run", async () => {
    const context = await newAppContext(app.browser, { adult: true });
    const page = await context.newPage();
    // hold the app's scripts back for two seconds: the headline must be on screen without them
    await context.route(/\/assets\/.*\.js$/, async (route) => {
      await new Promise((r) => setTimeout(r, 2_000));
      await route.continue();
    });
    await page.goto(`${app.server.url}/home`);
    await page.getByTestId("try-guest").waitFor();
    const lcp = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          new PerformanceObserver((list) => resolve(list.getEntries().at(-1)!.startTime)).observe({ type: "largest-contentful-paint", buffered: true });
        }),
    );
    // React's own headline (painted after the held-back scripts) is no larger, so it never became the largest paint
    expect(lcp).toBeLessThan(2_000);
    await context.close();
  });
});
