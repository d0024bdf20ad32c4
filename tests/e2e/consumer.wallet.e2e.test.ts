import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { randomAddress, startFakeToncenter, type FakeToncenter } from "../fixtures/fake-toncenter.ts";
import { telegramInitData } from "../fixtures/telegram.ts";
import { createTestWallet, type TestWallet } from "../fixtures/ton-wallet.ts";
import { launchBrowser } from "./browser.ts";
import { ensureConsumerBuild, newAppContext, pageShot, startAppServer } from "./consumer-app.ts";

const BOT_TOKEN = "7000000002:AAReverieWalletE2eBot";
const RECEIVING = randomAddress();

/**
 * Puts the test wallet into the page as an injected TON Connect wallet (window.<key>.tonconnect, the JS bridge a wallet's
 * own browser or extension provides); its requests are answered in Node by tests/fixtures/ton-wallet.ts.
 */
async function injectWallet(context: BrowserContext, wallet: TestWallet) {
  let id = 1;
  await context.exposeFunction("__testWalletConnect", (request: Parameters<TestWallet["connect"]>[0]) => wallet.connect(request, id++));
  await context.exposeFunction("__testWalletSend", (request: { method: string; params: [string]; id: string }) =>
    request.method === "sendTransaction" ? wallet.sendTransaction(request) : { result: {}, id: request.id },
  );
  await context.addInitScript((device) => {
    const w = window as unknown as Record<string, unknown> & { __testWalletConnect: (r: unknown) => Promise<unknown>; __testWalletSend: (r: unknown) => Promise<unknown> };
    w.reverieTestWallet = {
      tonconnect: {
        deviceInfo: device,
        walletInfo: {
          name: "Test Wallet",
          app_name: "reverietestwallet",
          image: "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAxIDEiPjxyZWN0IHdpZHRoPSIxIiBoZWlnaHQ9IjEiIGZpbGw9IiMwOThlZTgiLz48L3N2Zz4=",
          about_url: "https://example.invalid/wallet",
          platforms: ["chrome", "firefox", "safari", "ios", "android", "macos", "windows", "linux"],
        },
        protocolVersion: 2,
        isWalletBrowser: false,
        connect: (_version: number, request: unknown) => w.__testWalletConnect(request),
        restoreConnection: () => Promise.resolve({ event: "connect_error", id: 0, payload: { code: 0, message: "not connected" } }),
        send: (request: unknown) => w.__testWalletSend(request),
        listen: () => () => undefined,
        disconnect: () => undefined,
      },
    };
  }, wallet.device);
}

describe("the channel wallet (JPay) in the Mini App, on a 360 px phone", () => {
  let server: Awaited<ReturnType<typeof startAppServer>>;
  let browser: Browser;
  let chain: FakeToncenter;

  beforeAll(async () => {
    await ensureConsumerBuild();
    chain = await startFakeToncenter();
    server = await startAppServer({ TELEGRAM_BOT_TOKEN: BOT_TOKEN, TON_RECEIVING_ADDRESS: RECEIVING.toString(), JPAY_TON_RATE: "USD=0.32", TON_API_URL: chain.url });
    browser = await launchBrowser();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await chain?.close();
  });

  async function openMiniApp(language: "en" | "ja" | "ko" | "ru", wallet?: TestWallet): Promise<Page> {
    const context = await newAppContext(browser, { adult: true, language, viewport: { width: 360, height: 780 } });
    if (wallet) await injectWallet(context, wallet);
    const page = await context.newPage();
    // nothing outside the app is reachable here (the wallets list TON Connect fetches falls back to its built-in one)
    await page.route(/^https?:\/\/(?!127\.0\.0\.1)/, (r) => r.abort());
    const initData = telegramInitData(BOT_TOKEN, { userId: 770000 + Math.floor(Math.random() * 10000), firstName: "Ton" });
    await page.goto(`${server.url}/home#tgWebAppData=${encodeURIComponent(initData)}&tgWebAppVersion=8.0&tgWebAppPlatform=ios`);
    await page.getByTestId("try-guest").click();
    await page.waitForFunction(() => localStorage.getItem("reverie_playerUid") !== null);
    await page.getByTestId("balance").click();
    await page.getByTestId("provider-jpay").click();
    await page.getByTestId("wallet-pay").and(page.locator('[data-connected="false"]')).waitFor();
    return page;
  }

  it("connects a wallet with a ton_proof the server checks, pays the quoted TON, and the result page shows it paid", async () => {
    const wallet = createTestWallet(chain);
    const page = await openMiniApp("en", wallet);
    expect(await page.getByTestId("wallet-state").textContent()).toBe("Wallet: not connected");
    await pageShot(page, "consumer-wallet-not-connected-phone");

    await page.getByTestId("wallet-connect").click();
    await page.getByText("Test Wallet", { exact: true }).first().click();
    await page.getByTestId("wallet-pay").and(page.locator('[data-connected="true"]')).waitFor();
    const user = await server.db.user.findFirstOrThrow({ where: { wallet: { address: wallet.address.toRawString() } } });
    expect(await page.getByTestId("wallet-state").textContent()).toMatch(/^Wallet: connected UQ.{2}…/);
    await pageShot(page, "consumer-wallet-connected-phone");

    await page.getByTestId("agree-terms").check();
    await page.getByTestId("pay").click();
    await page.getByTestId("wallet-quote").waitFor();
    const order = await server.db.order.findFirstOrThrow({ where: { userId: user.id, provider: "jpay" }, orderBy: { id: "desc" } });
    const [, nano] = order.providerRef!.split(":");
    const ton = (Number(nano) / 1e9).toString();
    expect(await page.getByTestId("wallet-quote").textContent()).toContain(`You pay ${ton} TON`);
    expect(await page.getByTestId("pay").textContent()).toBe(`Send ${ton} TON`);
    // the dialog fits the phone: nothing reaches past its right edge
    const dialogRight = await page.getByTestId("buy-credits").locator(".MuiDialog-paper").evaluate((e) => e.getBoundingClientRect().right);
    const widest = await page.getByTestId("wallet-pay").locator("*").evaluateAll((els) => Math.max(...els.map((e) => e.getBoundingClientRect().right)));
    expect(widest).toBeLessThanOrEqual(dialogRight);
    await pageShot(page, "consumer-wallet-quote-phone");

    await page.getByTestId("pay").click();
    await page.waitForURL(/\/hcpayPayCallback\?order_id=\d+&provider=jpay$/);
    await page.getByTestId("payment-result").and(page.locator('[data-phase="paid"]')).waitFor({ timeout: 30_000 });
    expect(await server.db.order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ status: "paid", receivedCurrency: "TON", receivedAmount: ton });
    expect(await server.db.ledgerEntry.count({ where: { userId: user.id, reason: "purchase" } })).toBe(1);
    await pageShot(page, "consumer-wallet-paid-phone");
    await page.context().close();
  });

  it.each(["ja", "ko", "ru"] as const)("the wallet option in %s fits the phone", async (language) => {
    const page = await openMiniApp(language);
    const state = await page.getByTestId("wallet-state").textContent();
    expect(state).not.toContain("wallet.");
    const dialogRight = await page.getByTestId("buy-credits").locator(".MuiDialog-paper").evaluate((e) => e.getBoundingClientRect().right);
    const widest = await page.getByTestId("wallet-pay").locator("*").evaluateAll((els) => Math.max(...els.map((e) => e.getBoundingClientRect().right)));
    expect(widest).toBeLessThanOrEqual(dialogRight);
    await pageShot(page, `consumer-wallet-${language}-phone`);
    await page.context().close();
  });

  it("outside the Mini App the wallet option is not offered", async () => {
    const context = await newAppContext(browser, { adult: true, viewport: { width: 360, height: 780 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/home`);
    await page.getByTestId("try-guest").click();
    await page.waitForURL(/\/creationStudio$/);
    await page.getByTestId("balance").click();
    await page.getByTestId("provider-sandbox").waitFor();
    expect(await page.getByTestId("provider-jpay").count()).toBe(0);
    await context.close();
  });
});
