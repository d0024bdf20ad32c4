import { describe, expect, it } from "vitest";
import { randomAddress } from "../fixtures/fake-toncenter.ts";
import { telegramInitData } from "../fixtures/telegram.ts";
import { homeWithFlashSale, newAppContext, pageShot } from "./consumer-app.ts";
import { appForThisFile, startAsGuest } from "./app-per-file.ts";

const BOT_TOKEN = "7000000003:AAReverieCurrencyE2eBot";

/** Decision 300: prices in the visitor's currency, or in the one the chosen way to pay charges in, on a 360 px phone. */
describe("consumer app: prices per currency", () => {
  // JPay priced in euros: the one provider here that does not take the visitor's currency
  const app = appForThisFile({ TELEGRAM_BOT_TOKEN: BOT_TOKEN, TON_RECEIVING_ADDRESS: randomAddress().toString(), JPAY_TON_RATE: "EUR=0.35" });

  it("in Russian: the flash sale names its bonus, the buy dialog shows roubles and the order is charged in roubles", { timeout: 120_000 }, async () => {
    await app.server.db.product.update({ where: { code: "flash_video" }, data: { bonusCredits: 1 } });
    const context = await newAppContext(app.browser, { adult: true, language: "ru", viewport: { width: 360, height: 780 } });
    const page = await context.newPage();
    await startAsGuest(page, app.server.url);
    const sale = await homeWithFlashSale(page, app.server.url);
    expect(await sale.getByTestId("product-bonus").innerText()).toContain("+1");
    expect(await sale.innerText()).toContain("₽");
    await pageShot(page, "consumer-flash-sale-bonus-ru-360");
    await page.getByTestId("flash-cta").click();
    const dialog = page.getByTestId("buy-credits");
    await dialog.locator('[data-testid^="product-"][aria-pressed="true"]').waitFor();
    await page.getByTestId("provider-sandbox").click();
    const chosen = dialog.locator('[data-testid^="product-"][aria-pressed="true"]');
    expect(await chosen.getAttribute("data-currency")).toBe("RUB");
    expect(await chosen.getByTestId("buy-price").innerText()).toMatch(/^179,00\s₽$/);
    await page.screenshot({ path: "tests/output/screenshots/consumer-buy-roubles-ru-360.png" });
    await page.getByTestId("agree-terms").check();
    await page.getByTestId("pay").click();
    await page.waitForURL(/\/sandbox-pay\//);
    const order = await app.server.db.order.findFirstOrThrow({ orderBy: { id: "desc" } });
    expect(order).toMatchObject({ currency: "RUB", finalPriceMinor: 17900, amountMinor: 36000 });
    await context.close();
  });

  it("in English inside the Mini App: the wallet shows euro prices, and a pack without one is not sold through it", { timeout: 120_000 }, async () => {
    await app.server.db.product.update({ where: { code: "credits_50" }, data: { prices: [{ currency: "USD", priceMinor: 2999, salePriceMinor: null }] } });
    const context = await newAppContext(app.browser, { adult: true, language: "en", viewport: { width: 360, height: 780 } });
    const page = await context.newPage();
    await page.route(/^https?:\/\/(?!127\.0\.0\.1)/, (r) => r.abort());
    const initData = telegramInitData(BOT_TOKEN, { userId: 780000 + Math.floor(Math.random() * 10000), firstName: "Euro" });
    await page.goto(`${app.server.url}/home#tgWebAppData=${encodeURIComponent(initData)}&tgWebAppVersion=8.0&tgWebAppPlatform=ios`);
    await page.getByTestId("try-guest").click();
    await page.waitForFunction(() => localStorage.getItem("reverie_playerUid") !== null);
    await page.getByTestId("balance").click();
    const dialog = page.getByTestId("buy-credits");
    const pack = async (code: string) => dialog.getByTestId(`product-${(await app.server.db.product.findUniqueOrThrow({ where: { code } })).id}`);
    expect(await (await pack("credits_150")).getAttribute("data-currency")).toBe("USD");
    await page.getByTestId("provider-jpay").click();
    expect(await (await pack("credits_150")).getAttribute("data-currency")).toBe("EUR");
    expect(await (await pack("credits_150")).getByTestId("buy-price").innerText()).toBe("€74.99");
    expect(await (await pack("credits_50")).getByTestId("buy-not-sold").innerText()).toBe("Not sold with this payment method");
    await page.screenshot({ path: "tests/output/screenshots/consumer-buy-euros-en-360.png" });
    await context.close();
  });
});
