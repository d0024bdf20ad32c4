import { describe, expect, it } from "vitest";
import { mediaDir, video } from "../fixtures/media.ts";
import { appForThisFile } from "./app-per-file.ts";
import { missingTexts, newAppContext, pageShot } from "./consumer-app.ts";

/**
 * Issue 46 item 22 at 360 px in every language: a result that carries the free-output watermark says why and offers the
 * way to buy; one that does not says nothing; the buy dialog says what buying changes; the support bubble steps aside
 * rather than cover the player (and the mark in its corner).
 */
describe("the watermark on free output, told where it is decided", () => {
  const app = appForThisFile();

  /** A guest with two finished clips of their own: one marked (made free), one not. */
  async function guestWithClips() {
    const guest = (await app.server.http.post("/api/login/visitor").expect(200)).body.data as { token: string; user_info: { id: number } };
    const userId = guest.user_info.id;
    const files = await mediaDir();
    const key = `media/${userId}/clip.mp4`;
    await app.server.services.storage.put(key, await video(files.dir, 2, { width: 640, height: 360 }), "video/mp4");
    await files.cleanup();
    const clip = (mark: string | null) =>
      app.server.db.generationTask.create({
        data: {
          userId,
          mode: "image_to_video",
          engine: "local",
          status: "succeeded",
          cost: mark ? 0 : 1,
          paidWith: mark ? "free" : "credits",
          outputKey: key,
          outputs: { mainKey: key, posterKey: "", extraKeys: [], width: 640, height: 360, mark },
          durationSec: 2,
          input: { params: {}, sources: {} },
        },
      });
    return { token: guest.token, marked: (await clip("bottom-right")).id, unmarked: (await clip(null)).id };
  }

  for (const language of ["en", "ja", "ko", "ru"] as const) {
    it(`${language}: the marked result says why, with the way to buy; the buy dialog says what buying changes`, { timeout: 120_000 }, async () => {
      const who = await guestWithClips();
      const context = await newAppContext(app.browser, { adult: true, language, viewport: { width: 360, height: 740 } });
      await context.addInitScript((t) => {
        localStorage.setItem("reverie_token", t);
        localStorage.setItem("reverie_flash_sale_seen", String(Date.now()));
      }, who.token);
      const page = await context.newPage();

      await page.goto(`${app.server.url}/creationStudio?task=${who.unmarked}`);
      await page.getByTestId("result-video").waitFor();
      expect(await page.getByTestId("result-watermarked").count()).toBe(0);

      await page.goto(`${app.server.url}/creationStudio?task=${who.marked}`);
      await page.getByTestId("result-watermarked").waitFor();
      // a phone short enough that the bubble's corner lies over the player's bottom right, where the mark is: it steps aside
      await page.getByTestId("support-bubble").waitFor();
      await page.evaluate(() => window.scrollTo(0, 0));
      const playerBottom = await page.getByTestId("result-video").evaluate((v) => v.getBoundingClientRect().bottom);
      await page.setViewportSize({ width: 360, height: Math.round(playerBottom + 100) });
      const over = await page.evaluate(() => {
        const v = (document.querySelector("[data-testid=result-video]") as HTMLElement).getBoundingClientRect();
        const b = (document.querySelector("[data-testid=support-bubble]") as HTMLElement).getBoundingClientRect();
        return b.top < v.bottom && b.bottom > v.top && b.left < v.right && b.right > v.left;
      });
      expect(over).toBe(true);
      await expect.poll(() => page.getByTestId("support-bubble").getAttribute("data-stepped-aside")).toBe("1");
      await page.setViewportSize({ width: 360, height: 740 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)).toBe(false);
      await page.getByTestId("result-watermarked").scrollIntoViewIfNeeded();
      await pageShot(page, `result-watermarked-${language}-360`);

      await page.getByTestId("result-watermarked-buy").click();
      await page.getByTestId("buy-credits").waitFor();
      await page.getByTestId("buy-watermark").waitFor();
      await page.getByTestId("buy-watermark").scrollIntoViewIfNeeded();
      await page.screenshot({ path: `tests/output/screenshots/buy-watermark-${language}-360.png` });
      expect(await missingTexts(page), language).toEqual([]);
      await context.close();
    });
  }
});
