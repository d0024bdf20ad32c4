import { describe, expect, it } from "vitest";
import { appForThisFile, startAsGuest } from "./app-per-file.ts";
import { missingKeys, missingTexts, newAppContext, pageShot, usedKeys } from "./consumer-app.ts";

const LANGUAGES = ["en", "ja", "ko", "ru"] as const;

/** Issue 30 item 6 at 360 px in each language: prepare and download my archive; delete my account, then undo it. */
describe("My data", () => {
  const app = appForThisFile();

  it.each(LANGUAGES)(
    "exports, downloads, deletes and undoes in %s",
    async (language) => {
      const context = await newAppContext(app.browser, { adult: true, language, viewport: { width: 360, height: 780 } });
      await context.addInitScript(() => localStorage.setItem("reverie_flash_sale_seen", String(Date.now())));
      const page = await context.newPage();
      await startAsGuest(page, app.server.url);
      await page.goto(`${app.server.url}/myData`);
      await page.getByTestId("mydata").waitFor();

      await page.getByTestId("mydata-export-request").click();
      await page.getByTestId("mydata-export-status").waitFor();
      const exp = await app.server.db.dataExport.findFirstOrThrow({ orderBy: { id: "desc" } });
      // the worker is not running in tests: the job runs here, and the section's polling picks the result up
      await app.server.services.privacy.runExport(exp.id);
      await page.getByTestId("mydata-download").waitFor({ timeout: 15_000 });
      await pageShot(page, `consumer-mydata-export-ready-${language}-360`);
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("mydata-download").click()]);
      expect(download.suggestedFilename()).toMatch(/\.zip$/);

      await page.getByTestId("mydata-delete-confirm").click();
      await page.getByTestId("mydata-delete-pending").waitFor();
      expect(await app.server.db.accountDeletion.count({ where: { userId: exp.userId, status: "pending" } })).toBe(1);
      await pageShot(page, `consumer-mydata-delete-pending-${language}-360`);
      await page.getByTestId("mydata-delete-undo").click();
      await page.getByTestId("mydata-delete-pending").waitFor({ state: "detached" });
      expect(await app.server.db.accountDeletion.count({ where: { userId: exp.userId, status: "cancelled" } })).toBe(1);

      expect(await missingTexts(page)).toEqual([]);
      expect(missingKeys(language, await usedKeys(page))).toEqual([]);
      // nothing wider than the phone's screen
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await context.close();
    },
    90_000,
  );
});
