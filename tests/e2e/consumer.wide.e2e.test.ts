import { describe, expect, it } from "vitest";
import { STUDIO_MODES } from "../../server/src/contract/generation.ts";
import { appForThisFile } from "./app-per-file.ts";
import { missingTexts, newAppContext, pageShot } from "./consumer-app.ts";

/**
 * Issue 31's screens at desktop width (1280 px) in the four languages: the landing with its price claims and banners,
 * pricing and the buy dialog, the studio in each mode, the chat catalogue that says up front it cannot answer, and the
 * install dialog. Nothing wider than the window, no text shown as its key; screenshots to look at.
 */
describe("issue 31's screens at 1280 px", () => {
  const app = appForThisFile();

  it("fit the window in en, ja, ko and ru, with every text translated", async () => {
    for (const language of ["en", "ja", "ko", "ru"] as const) {
      const context = await newAppContext(app.browser, { adult: true, language, viewport: { width: 1280, height: 860 } });
      await context.addInitScript(() => localStorage.setItem("reverie_flash_sale_seen", String(Date.now())));
      const page = await context.newPage();
      const fits = async (screen: string) => {
        expect(await page.evaluate(() => document.scrollingElement?.scrollWidth ?? 0), `${screen} (${language}) is wider than the window`).toBeLessThanOrEqual(
          1280,
        );
        expect(await missingTexts(page), `${screen} (${language})`).toEqual([]);
        await pageShot(page, `consumer-1280-${screen}-${language}`);
      };
      await page.goto(`${app.server.url}/home`);
      await page.getByTestId("price-claim").first().waitFor();
      await fits("home");
      await page.getByTestId("try-guest").click();
      await page.waitForURL(/\/creationStudio$/);
      for (const mode of STUDIO_MODES) {
        await page.getByTestId(`mode-${mode}`).click();
        await fits(`studio-${mode}`);
      }
      await page.goto(`${app.server.url}/payment`);
      const pack = await app.server.db.product.findUniqueOrThrow({ where: { code: "credits_50" } });
      await page.getByTestId(`pricing-buy-${pack.id}`).click();
      await page.getByTestId(`product-${pack.id}`).waitFor();
      await fits("buy-dialog");
      await page.goto(`${app.server.url}/chat`);
      await page.getByTestId("chat-unavailable").first().waitFor();
      await fits("chat");
      await context.close();
    }
  }, 240_000);
});
