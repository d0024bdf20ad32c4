import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchBrowser, screenshot } from "./browser.ts";
import { ensureConsumerBuild, newAppContext, renderFirstPreviews, startAppServer } from "./consumer-app.ts";

describe("consumer app: template previews", () => {
  let server: Awaited<ReturnType<typeof startAppServer>>;
  let browser: Browser;
  let previewed: { id: number; name: string };

  beforeAll(async () => {
    await ensureConsumerBuild();
    [server, browser] = await Promise.all([startAppServer(), launchBrowser()]);
    // render the preview of the first video template only: that is all the journey looks at
    const [first] = await renderFirstPreviews(server, 1);
    previewed = first;
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("plays what a template makes of the sample picture when the card is pointed at, on a phone too", async () => {
    for (const viewport of [
      { width: 1280, height: 860 },
      { width: 390, height: 844 },
    ]) {
      const context = await newAppContext(browser, { adult: true, viewport });
      const page = await context.newPage();
      await page.goto(`${server.url}/creationStudio`);
      const card = page.getByTestId(`template-${previewed.id}`).first();
      await card.scrollIntoViewIfNeeded();
      expect(await card.getByTestId("template-preview").count()).toBe(0);
      if (viewport.width > 600) await card.hover();
      else await card.click();
      const video = card.getByTestId("template-preview");
      await video.waitFor();
      await page.waitForFunction((el) => (el as HTMLVideoElement).currentTime > 0.2, await video.elementHandle(), { timeout: 15_000 });
      await screenshot(page, `consumer-template-preview-${viewport.width}`);
      await context.close();
    }
  });
});
