import { startAsGuest } from "./app-per-file.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { randomAddress, startFakeToncenter, type FakeToncenter } from "../fixtures/fake-toncenter.ts";
import { telegramInitData } from "../fixtures/telegram.ts";
import { injectTonWallet, type WalletCall } from "../fixtures/ton-injected-wallet.ts";
import { createTestWallet, type TestWallet } from "../fixtures/ton-wallet.ts";
import path from "node:path";
import { SCREENSHOT_DIR, launchBrowser } from "./browser.ts";
import { ensureConsumerBuild, newAppContext, pageShot, startAppServer } from "./consumer-app.ts";

const BOT_TOKEN = "7000000002:AAReverieWalletE2eBot";
const RECEIVING = randomAddress();

/** The phone's screen with the buy dialog scrolled to its end, where the wallet option sits. */
async function dialogShot(page: Page, name: string) {
  await page.locator(".MuiDialogContent-root").evaluate((e) => e.scrollTo(0, e.scrollHeight));
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

describe("the channel wallet (JPay) in the Mini App, on a 360 px phone", () => {
  let server: Awaited<ReturnType<typeof startAppServer>>;
  let browser: Browser;
  let chain: FakeToncenter;
  let walletCalls: WalletCall[] = [];

  beforeAll(async () => {
    await ensureConsumerBuild();
    chain = await startFakeToncenter();
    server = await startAppServer({
      TELEGRAM_BOT_TOKEN: BOT_TOKEN,
      TON_RECEIVING_ADDRESS: RECEIVING.toString(),
      JPAY_TON_RATE: "USD=0.32",
      TON_API_URL: chain.url,
    });
    browser = await launchBrowser();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await chain?.close();
  });

  async function openMiniApp(language: "en" | "ja" | "ko" | "ru", wallet?: TestWallet): Promise<Page> {
    const context = await newAppContext(browser, { adult: true, language, viewport: { width: 360, height: 780 } });
    if (wallet) walletCalls = (await injectTonWallet(context, wallet, (boc) => chain.broadcast(boc))).calls;
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

  it("opens TON Connect's wallet chooser above the buy dialog, with the server's payload asked for", async () => {
    const page = await openMiniApp("en");
    expect(await page.getByTestId("wallet-state").textContent()).toBe("Wallet: not connected");
    expect(await page.getByTestId("pay").isDisabled()).toBe(true);
    await dialogShot(page, "consumer-wallet-not-connected-phone");
    await page.getByTestId("wallet-connect").click();
    const chooser = page.locator("#reverie-tonconnect-root [data-tc-wallets-modal-container]");
    await chooser.waitFor();
    await page.getByText("Connect your TON wallet").waitFor();
    const onTop = await page.evaluate(() => {
      const el = document.elementFromPoint(180, 500);
      return Boolean(el?.closest("#reverie-tonconnect-root"));
    });
    expect(onTop).toBe(true);
    const user = await server.db.user.findFirstOrThrow({ where: { sessions: { some: {} } }, orderBy: { id: "desc" } });
    expect(await server.db.walletProofPayload.count({ where: { userId: user.id } })).toBe(1);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "consumer-wallet-tonconnect-chooser-phone.png") });
    await page.locator("#reverie-tonconnect-root [data-tc-icon-button]").first().click();
    await chooser.waitFor({ state: "detached" });
    expect(await page.getByTestId("wallet-state").textContent()).toBe("Wallet: not connected");
    await page.context().close();
  }, 120_000);

  it("in a wallet's own browser: connects through TON Connect's JS bridge with a ton_proof the server checks, quotes the order in TON, sends it from the wallet, and the result page shows the on-chain payment", async () => {
    const wallet = createTestWallet();
    const page = await openMiniApp("en", wallet);
    expect(await page.getByTestId("wallet-state").textContent()).toBe("Wallet: not connected");

    // "Connect wallet" asks the server for a payload; TON Connect hands the connect request to the wallet, which answers
    // over the bridge with its account and a ton_proof signed with its key over that payload; the app forwards them
    await page.getByTestId("wallet-connect").click();
    await page.getByTestId("wallet-pay").and(page.locator('[data-connected="true"]')).waitFor();
    const user = await server.db.user.findFirstOrThrow({ where: { sessions: { some: {} } }, orderBy: { id: "desc" } });
    const issued = await server.db.walletProofPayload.findMany({ where: { userId: user.id } });
    expect(issued).toHaveLength(1);
    const connect = walletCalls.find((c) => c.method === "connect")?.message as { manifestUrl: string; items: { name: string; payload?: string }[] };
    expect(connect.manifestUrl).toBe(`${server.url}/tonconnect-manifest.json`);
    expect(connect.items).toContainEqual({ name: "ton_proof", payload: issued[0].payload });
    expect(await server.db.walletProofPayload.findUniqueOrThrow({ where: { id: issued[0].id } })).toMatchObject({ usedAt: expect.any(Date) });
    expect(await server.db.wallet.findFirstOrThrow({ where: { userId: user.id } })).toMatchObject({ address: wallet.address.toRawString() });
    expect(await page.getByTestId("wallet-state").textContent()).toMatch(/^Wallet: connected UQ.{2}….{4}$/);
    await dialogShot(page, "consumer-wallet-connected-phone");

    await page.getByTestId("pay").click();
    await page.getByTestId("buy-error").waitFor();
    expect(await page.getByTestId("buy-error").textContent()).toBe("Please agree to the terms first");
    await page.getByTestId("agree-terms").check();
    await page.getByTestId("pay").click();
    await page.getByTestId("wallet-quote").waitFor();
    expect(await page.getByTestId("buy-error").count()).toBe(0);
    const order = await server.db.order.findFirstOrThrow({ where: { userId: user.id, provider: "jpay" }, orderBy: { id: "desc" } });
    const nano = BigInt(order.providerRef!.split(":")[1]);
    const ton = (Number(nano) / 1e9).toString();
    expect(await page.getByTestId("wallet-quote").textContent()).toContain(`You pay ${ton} TON`);
    expect(await page.getByTestId("pay").textContent()).toBe(`Send ${ton} TON`);
    const dialogRight = await page
      .getByTestId("buy-credits")
      .locator(".MuiDialog-paper")
      .evaluate((e) => e.getBoundingClientRect().right);
    const widest = await page
      .getByTestId("wallet-pay")
      .locator("*")
      .evaluateAll((els) => Math.max(...els.map((e) => e.getBoundingClientRect().right)));
    expect(widest).toBeLessThanOrEqual(dialogRight);
    await dialogShot(page, "consumer-wallet-quote-phone");

    // "Send" asks the wallet for the transfer over the bridge; the wallet signs it and puts it on chain, the app reports
    // it and goes to the result page, which polls until the server finds the transfer on chain
    await page.getByTestId("pay").click();
    await page.getByTestId("payment-result").and(page.locator('[data-phase="paid"]')).waitFor({ timeout: 30_000 });
    const sent = walletCalls.filter((c) => c.method === "send").map((c) => c.message as { method: string; params: string[] });
    expect(sent.map((m) => m.method)).toEqual(["sendTransaction"]);
    expect(JSON.parse(sent[0].params[0])).toMatchObject({
      network: "-239",
      messages: [{ address: RECEIVING.toString({ bounceable: false }), amount: nano.toString() }],
    });
    expect(await server.db.order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({
      status: "paid",
      receivedCurrency: "TON",
      receivedAmount: ton,
    });
    expect(await server.db.ledgerEntry.count({ where: { userId: user.id, reason: "purchase" } })).toBe(1);
    await pageShot(page, "consumer-wallet-paid-phone");
    await page.context().close();
  }, 120_000);

  it.each(["ja", "ko", "ru"] as const)(
    "the wallet option in %s fits the phone",
    async (language) => {
      const page = await openMiniApp(language);
      const state = await page.getByTestId("wallet-state").textContent();
      expect(state).not.toContain("wallet.");
      const dialogRight = await page
        .getByTestId("buy-credits")
        .locator(".MuiDialog-paper")
        .evaluate((e) => e.getBoundingClientRect().right);
      const widest = await page
        .getByTestId("wallet-pay")
        .locator("*")
        .evaluateAll((els) => Math.max(...els.map((e) => e.getBoundingClientRect().right)));
      expect(widest).toBeLessThanOrEqual(dialogRight);
      await dialogShot(page, `consumer-wallet-${language}-phone`);
      await page.context().close();
    },
    60_000,
  );

  it("outside the Mini App the wallet option is not offered", async () => {
    const context = await newAppContext(browser, { adult: true, viewport: { width: 360, height: 780 } });
    const page = await context.newPage();
    await startAsGuest(page, server.url);
    await page.getByTestId("balance").click();
    await page.getByTestId("provider-sandbox").waitFor();
    expect(await page.getByTestId("provider-jpay").count()).toBe(0);
    await context.close();
  });
});
