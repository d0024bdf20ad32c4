import { startAsGuest } from "./app-per-file.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { startFakePagsmile, type FakePagsmile } from "../fixtures/fake-pagsmile.ts";
import { telegramInitData } from "../fixtures/telegram.ts";
import { launchBrowser } from "./browser.ts";
import { ensureConsumerBuild, newAppContext, pageShot, startAppServer } from "./consumer-app.ts";

const BOT_TOKEN = "7000000001:AAReverieE2eBotSecret";

describe("consumer app inside the messaging channel, and the configured payment options", () => {
  let server: Awaited<ReturnType<typeof startAppServer>>;
  let browser: Browser;
  let pagsmile: FakePagsmile;

  beforeAll(async () => {
    await ensureConsumerBuild();
    pagsmile = await startFakePagsmile({ appId: "1625829214531663", securityKey: "Pagsmile_sk_e2e" });
    server = await startAppServer({
      TELEGRAM_BOT_TOKEN: BOT_TOKEN,
      PAGSMILE_APP_ID: "1625829214531663",
      PAGSMILE_SECURITY_KEY: "Pagsmile_sk_e2e",
      PAGSMILE_API_BASE: pagsmile.url,
      PAGSMILE_METHOD_CODES: "sbp=SBP,sberpay=SberPay,tpay=TPay",
    });
    browser = await launchBrowser();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await pagsmile?.close();
  });

  it("opened as a Mini App with no token: the channel login waits (pending), then runs once the guest login gives a token", async () => {
    const context = await newAppContext(browser, { adult: true });
    const page = await context.newPage();
    const initData = telegramInitData(BOT_TOKEN, { userId: 880011, firstName: "Mira" });
    await page.goto(`${server.url}/home#tgWebAppData=${encodeURIComponent(initData)}&tgWebAppVersion=8.0&tgWebAppPlatform=ios`);
    await page.getByTestId("try-guest").waitFor();
    expect(await page.evaluate(() => localStorage.getItem("reverie_channel_login_pending"))).toBe(initData);
    expect(await page.evaluate(() => localStorage.getItem("reverie_token"))).toBeNull();
    await page.getByTestId("try-guest").click();
    await page.waitForFunction(() => localStorage.getItem("reverie_playerUid") === "880011");
    expect(await page.evaluate(() => localStorage.getItem("reverie_channel_login_pending"))).toBeNull();
    const user = await server.db.user.findUniqueOrThrow({ where: { playerUid: "880011" } });
    // known by the channel alone: noRegister, a saved account (decision 373)
    expect(user).toMatchObject({ loginType: "noRegister", role: "user", nickname: "Mira", mergedIntoId: null });
    // the guest became the channel account: the token in the browser is that account's
    const token = await page.evaluate(() => localStorage.getItem("reverie_token"));
    const info = await server.http.get("/api/Personal/personal_info").set("token", token!).expect(200);
    expect(info.body.data.info.id).toBe(user.id);
    await context.close();
  });

  it.each(["en", "ja", "ko", "ru"] as const)(
    "a channel-only account is named as such in the account menu and goes to make its page from HomeLink (%s, 360 px)",
    async (language) => {
      const context = await newAppContext(browser, { adult: true, language, viewport: { width: 360, height: 780 } });
      const page = await context.newPage();
      const initData = telegramInitData(BOT_TOKEN, { userId: 880100 + ["en", "ja", "ko", "ru"].indexOf(language), firstName: "Mira" });
      await page.goto(`${server.url}/home#tgWebAppData=${encodeURIComponent(initData)}&tgWebAppVersion=8.0&tgWebAppPlatform=ios`);
      await page.getByTestId("try-guest").click();
      await page.waitForFunction(() => localStorage.getItem("reverie_loginType") === "noRegister");
      // the menu is opened where the person is taken, the studio: a tap on the home page's header while the studio still
      // loads opens a menu that the page change then closes
      await page.waitForURL(/\/creationStudio$/);
      await page.getByTestId("photo-choose").waitFor();
      await page.getByTestId("account-menu").click();
      const label = { en: "Telegram account", ja: "Telegramアカウント", ko: "텔레그램 계정", ru: "Аккаунт Telegram" }[language];
      // the open menu's words: a failure shows what it said instead (or that it never opened)
      await expect.poll(() => page.getByRole("menu").allInnerTexts(), { timeout: 25_000 }).toEqual([expect.stringContaining(label)]);
      await page.getByText(label, { exact: true }).waitFor();
      await pageShot(page, `consumer-channel-account-menu-${language}-360`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await page.keyboard.press("Escape");
      // a saved account: HomeLink takes it to make its page, as it does a registered one (a guest goes home)
      await page.getByTestId("bottom-home").click();
      await page.waitForURL(/\/creator$/);
      await context.close();
    },
    60_000,
  );

  it("the buy dialog offers exactly the configured providers and their methods, on a 360 px phone", async () => {
    const context = await newAppContext(browser, { adult: true, viewport: { width: 360, height: 780 } });
    const page = await context.newPage();
    await startAsGuest(page, server.url);
    await page.getByTestId("balance").click();
    await page.getByTestId("provider-pagsmile-sbp").waitFor();
    const shown = await page.locator('[data-testid^="provider-"]').evaluateAll((els) => els.map((e) => e.getAttribute("data-testid")));
    expect(shown).toEqual([
      "provider-sandbox",
      "provider-pagsmile",
      "provider-pagsmile-recurring",
      "provider-pagsmile-sbp",
      "provider-pagsmile-sberpay",
      "provider-pagsmile-tpay",
    ]);
    // the options wrap inside the dialog: none reaches past its right edge
    const dialogRight = await page
      .getByTestId("buy-credits")
      .locator(".MuiDialog-paper")
      .evaluate((e) => e.getBoundingClientRect().right);
    const optionsRight = await page.locator('[data-testid^="provider-"]').evaluateAll((els) => Math.max(...els.map((e) => e.getBoundingClientRect().right)));
    expect(optionsRight).toBeLessThanOrEqual(dialogRight);
    await pageShot(page, "consumer-buy-credits-providers-phone");
    await page.getByTestId("agree-terms").check();
    await page.getByTestId("provider-pagsmile-tpay").click();
    await page.getByTestId("pay").click();
    await page.waitForURL(/\/checkout\?prepay_id=/);
    const order = await server.db.order.findFirstOrThrow({ orderBy: { id: "desc" } });
    expect(pagsmile.byOrderNo(order.orderNo)).toMatchObject({ method: "TPay", return_url: `${server.url}/tpayCallback?order_id=${order.id}` });
    await context.close();
  });

  it("a member sees the next renewal on /function and cancels it there, on a 360 px phone", async () => {
    const context = await newAppContext(browser, { adult: true, viewport: { width: 360, height: 780 } });
    const page = await context.newPage();
    await startAsGuest(page, server.url);
    const token = (await page.evaluate(() => localStorage.getItem("reverie_token")))!;
    const plan = await server.db.product.findUniqueOrThrow({ where: { code: "plan_monthly" } });
    const order = await server.http
      .post("/api/order/createPagsmileRecurringPay")
      .set("token", token)
      .send({ product_id: plan.id, agree_terms: true })
      .expect(200);
    const trade = pagsmile.settle(pagsmile.byOrderNo(order.body.data.order_no).trade_no, "SUCCESS");
    const n = pagsmile.notification(trade, { period: 1 });
    await server.http.post("/api/order/pagsmileNotify").set(n.headers).send(n.body).expect(200);
    await page.goto(`${server.url}/function`);
    await page.locator('[data-testid="membership"][data-status="active"]').waitFor();
    await pageShot(page, "consumer-membership-active-phone");
    await page.getByTestId("membership-cancel").click();
    await page.getByTestId("membership-cancel-confirm").click();
    await page.locator('[data-testid="membership"][data-status="cancelled"]').waitFor();
    expect(trade.recurring_status).toBe("CANCEL");
    await pageShot(page, "consumer-membership-cancelled-phone");
    await context.close();
  });
});
