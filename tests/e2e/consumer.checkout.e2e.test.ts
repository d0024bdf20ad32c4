import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { homeWithFlashSale, newAppContext, pageShot } from "./consumer-app.ts";
import { appForThisFile, startAsGuest } from "./app-per-file.ts";
import { priceIn } from "../../server/src/domains/products/products.pricing.ts";

/** Issue 11 items 4 and 5: what the person tapped is what is ordered, and the monthly plan can be bought. */
describe("consumer app: the checkout orders what was tapped", () => {
  const app = appForThisFile();

  async function guest(page: Page): Promise<void> {
    await startAsGuest(page, app.server.url);
  }

  const latestOrder = () => app.server.db.order.findFirst({ orderBy: { id: "desc" } });

  /** In the open buy dialog: the chosen product, then the sandbox checkout; answers the order it created. */
  async function payInDialog(page: Page, expectedProductId: number) {
    const dialog = page.getByTestId("buy-credits");
    await dialog.locator('[data-testid^="product-"][aria-pressed="true"]').waitFor();
    expect(await dialog.locator('[data-testid^="product-"][aria-pressed="true"]').getAttribute("data-testid")).toBe(`product-${expectedProductId}`);
    const before = (await latestOrder())?.id ?? 0;
    await page.getByTestId("agree-terms").check();
    await page.getByTestId("provider-sandbox").click();
    await page.getByTestId("pay").click();
    await page.waitForURL(/\/sandbox-pay\//);
    const order = await latestOrder();
    expect(order!.id).toBeGreaterThan(before);
    return order!;
  }

  it("every card on /payment, the monthly plan included, orders its own product at its card's price", async () => {
    const context = await newAppContext(app.browser, { adult: true, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await guest(page);
    await page.goto(`${app.server.url}/payment`);
    const cards = page.locator('[data-testid^="pricing-"][data-price]');
    await cards.first().waitFor();
    const products = await app.server.db.product.findMany({ where: { active: true } });
    expect(await cards.count()).toBe(products.length);
    const plan = products.find((p) => p.kind === "subscription")!;
    // the plan's card says what it gives and how often it bills
    const planCard = page.getByTestId(`pricing-${plan.id}`);
    expect(await planCard.getByTestId("plan-credits").innerText()).toBe(`${plan.credits} credits for ${plan.intervalDays} days`);
    expect(await planCard.getByTestId("plan-billing").innerText()).toBe(
      "Card and PayPal subscriptions renew each period until you cancel; other payment methods pay for one period",
    );
    await pageShot(page, "consumer-pricing-desktop");

    for (const p of products) {
      await page.goto(`${app.server.url}/payment`);
      const card = page.getByTestId(`pricing-${p.id}`);
      const shownPrice = Number(await card.getAttribute("data-price"));
      await page.getByTestId(`pricing-buy-${p.id}`).click();
      if (p.kind === "subscription") {
        await page.getByTestId(`product-${p.id}`).getByTestId("plan-billing").waitFor();
        await page.screenshot({ path: "tests/output/screenshots/consumer-buy-plan.png" });
      }
      const order = await payInDialog(page, p.id);
      expect(order.productId).toBe(p.id);
      expect(order.finalPriceMinor).toBe(shownPrice);
      // the seeded sale is running: its sale price is charged
      const usd = priceIn(p, "USD");
      expect(order.finalPriceMinor).toBe(usd?.salePriceMinor ?? usd?.priceMinor);
    }
    await context.close();
  });

  it("'Grab the deal' on the flash sale orders the flash sale at its price", async () => {
    const context = await newAppContext(app.browser, { adult: true, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await guest(page);
    await homeWithFlashSale(page, app.server.url);
    const flash = await app.server.db.product.findUniqueOrThrow({ where: { code: "flash_video" } });
    await page.getByTestId("flash-cta").click();
    const order = await payInDialog(page, flash.id);
    expect(order.productId).toBe(flash.id);
    expect(order.finalPriceMinor).toBe(priceIn(flash, "USD")?.salePriceMinor);
    await context.close();
  });

  it("'Try again' after a decline offers the declined product again, not the best-value pack", async () => {
    const context = await newAppContext(app.browser, { adult: true, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await guest(page);
    const small = await app.server.db.product.findFirstOrThrow({ where: { code: "credits_50" } });
    await page.goto(`${app.server.url}/payment`);
    await page.getByTestId(`pricing-buy-${small.id}`).click();
    await payInDialog(page, small.id);
    await page.locator("button.decline").click();
    await page.locator('[data-testid="payment-result"][data-phase="failed"]').waitFor();
    const retry = page.getByTestId("payment-retry");
    await page.waitForFunction(() => !(document.querySelector('[data-testid="payment-retry"]') as HTMLButtonElement | null)?.disabled, null, {
      timeout: 20_000,
    });
    await retry.click();
    const order = await payInDialog(page, small.id);
    expect(order.productId).toBe(small.id);
    expect(order.finalPriceMinor).toBe(priceIn(small, "USD")?.priceMinor);
    await context.close();
  });
});
