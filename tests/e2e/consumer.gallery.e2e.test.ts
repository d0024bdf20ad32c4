import { describe, expect, it } from "vitest";
import { photo } from "../fixtures/media.ts";
import { grant } from "../generation-utils.ts";
import { registeredUser } from "../training-utils.ts";
import { appForThisFile, startAsGuest } from "./app-per-file.ts";
import { missingTexts, newAppContext, pageShot, scrollToGallery, storedToken } from "./consumer-app.ts";

/**
 * Issue 32 items 1 and 2 at 360 px: a guest likes a shared creation, opens it (prompt and settings, no photo of the
 * owner's), and "use these settings" opens the studio filled in; the remix submitted names its source.
 */
describe("the gallery you can respond to", () => {
  const app = appForThisFile();

  for (const language of ["en", "ja", "ru"] as const) {
    it(`${language}: like, open an item, use its settings in the studio`, async () => {
      const owner = await registeredUser(app.server);
      await app.server.db.user.update({ where: { id: owner.userId }, data: { nickname: `Mira${language}` } });
      const key = `media/${owner.userId}/shared.jpg`;
      await app.server.services.storage.put(key, await photo(600, 800), "image/jpeg");
      const task = await app.server.db.generationTask.create({
        data: {
          userId: owner.userId,
          mode: "text_to_image",
          engine: "local",
          status: "succeeded",
          cost: 1,
          outputKey: key,
          isPublic: true,
          input: { prompt: "neon city at night, rain", negativePrompt: "blur", seed: 4242, aspect: "9:16", params: {}, sources: {} },
        },
      });
      const context = await newAppContext(app.browser, { adult: true, language, viewport: { width: 360, height: 780 } });
      await context.addInitScript(() => localStorage.setItem("reverie_flash_sale_seen", String(Date.now())));
      const page = await context.newPage();
      await startAsGuest(page, app.server.url);
      const token = (await storedToken(page))!;
      const fanId = (await app.server.http.get("/api/Personal/personal_info").set("token", token).expect(200)).body.data.info.id as number;

      await page.goto(`${app.server.url}/home`);
      await scrollToGallery(page);
      const card = page.getByTestId(`gallery-item-${task.id}`);
      await card.waitFor();
      await card.getByTestId(`like-${task.id}`).click();
      await card.getByTestId(`likes-${task.id}`).filter({ hasText: "1" }).waitFor();
      expect(await app.server.db.galleryLike.count({ where: { taskId: task.id } })).toBe(1);

      await card.getByTestId(`gallery-open-${task.id}`).click();
      const dialog = page.getByTestId("gallery-item");
      await dialog.getByTestId("gallery-prompt").filter({ hasText: "neon city at night, rain" }).waitFor();
      await dialog.getByText("4242").waitFor();
      await pageShot(page, `gallery-item-${language}-360`);
      // issue 46 item 23: on a short phone the dialog fits the screen and "Use these settings" is in sight, on top, unscrolled
      await page.setViewportSize({ width: 360, height: 640 });
      await page.waitForTimeout(300);
      const reachable = await dialog.getByTestId("gallery-use-settings").evaluate((b) => {
        const r = b.getBoundingClientRect();
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return { inSight: r.top >= 0 && r.bottom <= window.innerHeight, onTop: b === top || b.contains(top) };
      });
      expect(reachable, language).toEqual({ inSight: true, onTop: true });
      await page.screenshot({ path: `tests/output/screenshots/gallery-item-${language}-360x640.png` });
      await page.setViewportSize({ width: 360, height: 780 });

      await dialog.getByTestId("gallery-use-settings").click();
      await page.waitForURL(/\/creationStudio\?/);
      await page.getByTestId("remix-note").waitFor();
      await page.getByTestId("prompt").waitFor();
      expect(await page.getByTestId("prompt").inputValue()).toBe("neon city at night, rain");
      await pageShot(page, `gallery-remix-studio-${language}-360`);
      expect(await missingTexts(page)).toEqual([]);

      if (language === "en") {
        await grant(app.server, fanId, 10);
        await page.getByTestId("generate-images").click();
        await page.waitForURL(/task=\d+/);
        const made = await app.server.db.generationTask.findFirstOrThrow({ where: { userId: fanId }, orderBy: { id: "desc" } });
        expect(made.remixOfId).toBe(task.id);
        expect((made.input as { prompt?: string }).prompt).toBe("neon city at night, rain");
        expect((await app.server.db.generationTask.findUniqueOrThrow({ where: { id: task.id } })).remixCount).toBe(1);
      }
      await context.close();
    }, 120_000);
  }
});
