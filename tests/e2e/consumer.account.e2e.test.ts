import crypto from "node:crypto";
import fs from "node:fs/promises";
import { afterAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { localeText, missingKeys, missingTexts, newAppContext, pageShot, speaking, storedToken, switchLanguage, usedKeys } from "./consumer-app.ts";
import { appForThisFile, startAsGuest } from "./app-per-file.ts";
import { mediaDir, photo } from "./consumer-media.ts";

const LANGUAGES = ["en", "ja", "ko", "ru"] as const;
const NARROW = { width: 360, height: 740 };

/** Issue 30 items 2-4: the account area under the avatar — profile, purchases with receipts, and the plan. */
describe("consumer app: my account at 360 px in every language", () => {
  const app = appForThisFile();
  const dir = mediaDir();
  afterAll(async () => fs.rm(await dir, { recursive: true, force: true }));

  async function post(path: string, token: string, body: object) {
    const res = await fetch(`${app.server.url}${path}`, { method: "POST", headers: { token, "content-type": "application/json" }, body: JSON.stringify(body) });
    return ((await res.json()) as { data: any }).data;
  }

  /** What a person has after a while: an email, a paid pack, a refunded pack, and the Monthly plan bought through the sandbox. */
  async function history(token: string, userId: number): Promise<void> {
    await app.server.db.user.update({ where: { id: userId }, data: { email: `account-${userId}@example.com` } });
    const product = async (code: string) => (await app.server.db.product.findUniqueOrThrow({ where: { code } })).id;
    for (const code of ["credits_50", "credits_150", "plan_monthly"]) {
      const order = await post("/api/order/createOrderAndPay", token, { product_id: await product(code), provider: "sandbox", agree_terms: true });
      await fetch(`${order.pay_url}/pay`, { method: "POST", redirect: "manual" });
    }
    const pack = await app.server.db.order.findFirstOrThrow({ where: { userId, product: { code: "credits_50" } } });
    await app.server.db.order.update({ where: { id: pack.id }, data: { status: "refunded", refundedMinor: pack.finalPriceMinor } });
  }

  const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

  // One account with a history (a guest, three sandbox payments, a refund), made once: the journey runs on its page in
  // English, then again after each next language is chosen there (as a person switches, no reload), so every screen has
  // its words, its fit at 360 px and its screenshot checked in each language without a new guest, history and app load.
  // The photo upload does not depend on the language: English only, as before.
  it("profile, purchases with a receipt (and a refunded one), the plan cancelled and resumed, the language saved; every screen in ja, ko and ru too", {
    timeout: 120_000,
  }, async () => {
    const context = await newAppContext(app.browser, { adult: true, language: "en", viewport: NARROW });
    const page = await context.newPage();
    await startAsGuest(page, app.server.url);
    const token = (await storedToken(page))!;
    const userId = (await app.server.db.session.findFirstOrThrow({ orderBy: { id: "desc" }, where: { userId: { not: null } } })).userId!;
    await history(token, userId);
    const email = `account-${userId}@example.com`;

    await page.getByTestId("account-menu").click();
    await page.getByTestId("menu-account").click();
    await page.waitForURL(/\/account$/);
    for (const [i, language] of LANGUAGES.entries()) {
      await speaking(page, language);
      await page.locator('[data-testid="membership"][data-status="active"]').waitFor();
      await page.locator('[data-testid="purchase"]').nth(2).waitFor();
      expect(await page.getByTestId("profile-email").innerText()).toBe(email);
      expect(await page.locator('[data-testid="sign-in-methods"] [data-method]').evaluateAll((els) => els.map((e) => e.getAttribute("data-method")))).toEqual([
        "email",
      ]);
      expect(await page.locator('[data-testid="purchase"]').evaluateAll((els) => els.map((e) => e.getAttribute("data-status")))).toEqual([
        "paid",
        "paid",
        "refunded",
      ]);
      expect(await sideways(page), language).toBeLessThanOrEqual(0);
      await pageShot(page, `account-${language}`);

      // the plan: cancel (it runs to the period's end), then resume
      await page.getByTestId("membership-cancel").click();
      await page.getByTestId("membership-cancel-confirm").click();
      await page.locator('[data-testid="membership"][data-status="cancelled"]').waitFor();
      expect((await app.server.db.membership.findFirstOrThrow({ where: { userId } })).status).toBe("cancelled");
      await pageShot(page, `account-plan-cancelled-${language}`);
      await page.getByTestId("membership-resume").click();
      await page.locator('[data-testid="membership"][data-status="active"]').waitFor();
      expect((await app.server.db.membership.findFirstOrThrow({ where: { userId } })).status).toBe("active");

      // a receipt, emailed to the address on file, in each language (the two paid packs' receipts in turn: a receipt may
      // be emailed three times an hour); the refunded order's receipt says so
      await page
        .getByTestId("receipt-link")
        .nth(i % 2)
        .click();
      await page.getByTestId("receipt").waitFor();
      await page.getByTestId("receipt-email").click();
      await page.getByTestId("receipt-sent").waitFor();
      expect(await app.server.db.outboxEmail.count({ where: { to: email } })).toBe(i + 1);
      expect(await sideways(page), language).toBeLessThanOrEqual(0);
      await pageShot(page, `account-receipt-${language}`);
      await page.goBack();
      await page.getByTestId("receipt-link").nth(2).click();
      await page.getByTestId("receipt-refunded").waitFor();
      await page.goBack();

      // the nickname and the language are saved to the account
      await page.getByTestId("profile-nickname").fill(`Mika ${language}`);
      await page.getByTestId("profile-save").click();
      await page.waitForFunction(
        (n) => document.querySelector('[data-testid="nickname"], [data-testid="profile"]')?.textContent?.includes(n),
        `Mika ${language}`,
      );
      expect((await app.server.db.user.findUniqueOrThrow({ where: { id: userId } })).nickname).toBe(`Mika ${language}`);
      if (language === "en") {
        // a photo of one's own, uploaded with the consent attestation, becomes the profile photo
        await page.getByTestId("profile-photo").click();
        await page.getByTestId("consent").check();
        await page.getByTestId("photo-input").setInputFiles(await photo(await dir));
        await page.getByTestId("cropper").waitFor();
        await page.getByTestId("crop-confirm").click();
        await expect.poll(async () => (await app.server.db.user.findUniqueOrThrow({ where: { id: userId } })).photoKey, { timeout: 15_000 }).toBeTruthy();
        await page.locator('[data-testid="profile"] .MuiAvatar-root img').waitFor();
        await pageShot(page, "account-photo-en");
      }
      const keys = (await usedKeys(page)).filter((k) => k.startsWith("account.") || k.startsWith("membership."));
      expect(missingKeys(language, keys)).toEqual([]);
      expect(await missingTexts(page)).toEqual([]);
      // the next language (after Russian, back to English) is chosen here, on the account's own page
      const next = LANGUAGES[(i + 1) % LANGUAGES.length];
      await page.getByTestId("profile-language").click();
      await page.getByTestId(`profile-language-${next}`).click();
      await expect.poll(async () => (await app.server.db.user.findUniqueOrThrow({ where: { id: userId } })).language, { timeout: 15_000 }).toBe(next);
    }
    await context.close();
  });

  // The behaviour once, in English; the warning, the login dialog it leads to and its "cancel" in every language, for
  // the same guest switched to each language in the studio (the warning's list names what is lost in that language)
  it("a guest with nothing logs out at once; a guest with credits and a creation is warned and offered to save first, in every language (issue 46 item 1)", {
    timeout: 90_000,
  }, async () => {
    // the home page after logging out offers the running sale 1.5 s in; a busy machine's slower steps met that modal
    // over "Try it free" (not what this test is about)
    const context = await newAppContext(app.browser, { adult: true, language: "en", viewport: NARROW, saleSeen: true });
    const page = await context.newPage();
    await startAsGuest(page, app.server.url);
    await page.getByTestId("account-menu").click();
    await page.getByTestId("logout").click();
    await page.waitForURL(/\/home$/);
    await expect.poll(() => storedToken(page)).toBeNull();
    expect(await page.getByTestId("guest-logout").count()).toBe(0);

    await page.getByTestId("try-guest").click();
    await page.waitForURL(/\/creationStudio$/);
    const token = (await storedToken(page))!;
    const info = await fetch(`${app.server.url}/api/Personal/personal_info`, { headers: { token } }).then((r) => r.json());
    const userId = (info as { data: { info: { id: number } } }).data.info.id;
    await app.server.db.user.update({ where: { id: userId }, data: { points: 9 } });
    await app.server.db.generationTask.create({
      data: { userId, mode: "image_to_video", engine: "local", status: "succeeded", cost: 1, input: {}, finishedAt: new Date() },
    });
    for (const language of LANGUAGES) {
      if (language !== "en") await switchLanguage(page, language);
      await page.getByTestId("account-menu").click();
      await page.getByTestId("logout").click();
      await page.getByTestId("guest-logout").waitFor();
      expect(await page.getByTestId("guest-logout-lost").locator("li").allInnerTexts()).toEqual([
        localeText(language, "saveAccount.logoutCredits", 9),
        localeText(language, "saveAccount.logoutResults", 1),
      ]);
      expect(await sideways(page), language).toBeLessThanOrEqual(0);
      await pageShot(page, `guest-logout-warning-${language}`);
      // keeping it: the login dialog, which saves this account with an email
      await page.getByTestId("guest-logout-save").click();
      await page.getByTestId("login-dialog").waitFor();
      await page.keyboard.press("Escape");
      await page.getByTestId("login-dialog").waitFor({ state: "detached" });
      expect(await storedToken(page)).toBe(token);
      // cancelling keeps the session
      await page.getByTestId("account-menu").click();
      await page.getByTestId("logout").click();
      await page.getByTestId("guest-logout-cancel").click();
      await page.getByTestId("guest-logout").waitFor({ state: "detached" });
      expect(await storedToken(page)).toBe(token);
      expect(
        missingKeys(
          language,
          (await usedKeys(page)).filter((k) => k.startsWith("saveAccount.")),
        ),
      ).toEqual([]);
      expect(await missingTexts(page)).toEqual([]);
    }
    // only "log out and lose it" logs out
    await page.getByTestId("account-menu").click();
    await page.getByTestId("logout").click();
    await page.getByTestId("guest-logout-anyway").click();
    await page.waitForURL(/\/home$/);
    await expect.poll(() => storedToken(page)).toBeNull();
    await context.close();
  });

  /** Signs the page's guest in with an emailed code; the code stored is replaced by a known one (its hash, as auth keeps it). */
  async function emailSignIn(page: Page, email: string): Promise<void> {
    await page.getByTestId("account-menu").click();
    await page.getByTestId("menu-login").click();
    await page.getByTestId("login-email").fill(email);
    await page.getByTestId("send-code").click();
    await expect.poll(() => app.server.db.emailCode.count({ where: { email } }), { timeout: 15_000 }).toBe(1);
    const codeHash = crypto.createHash("sha256").update(`${email}:424242`).digest("hex");
    await app.server.db.emailCode.updateMany({ where: { email }, data: { codeHash } });
    await page.getByTestId("login-code").fill("424242");
    await page.getByTestId("login-submit").click();
    await page.getByTestId("login-dialog").waitFor({ state: "detached" });
  }

  it("the language saved on an account is applied at sign-in on another device; a new account keeps the one chosen here", async () => {
    await app.server.db.user.create({ data: { email: "returning@example.com", loginType: "registered", role: "user", language: "ru" } });
    const context = await newAppContext(app.browser, { adult: true, language: "en", viewport: NARROW });
    const page = await context.newPage();
    await startAsGuest(page, app.server.url);
    await emailSignIn(page, "returning@example.com");
    await page.waitForFunction(() => document.documentElement.lang === "ru");
    await context.close();

    const fresh = await newAppContext(app.browser, { adult: true, language: "ko", viewport: NARROW });
    const other = await fresh.newPage();
    await startAsGuest(other, app.server.url);
    await emailSignIn(other, "new-here@example.com");
    await expect
      .poll(async () => (await app.server.db.user.findUniqueOrThrow({ where: { email: "new-here@example.com" } })).language, { timeout: 15_000 })
      .toBe("ko");
    expect(await other.evaluate(() => document.documentElement.lang)).toBe("ko");
    await fresh.close();
  });

  it("a visitor who never chose a language signs in speaking the operator's default, and the new account keeps it", async () => {
    await app.server.db.siteSetting.create({ data: { key: "brand", value: { language: "ru" } } });
    const context = await newAppContext(app.browser, { adult: true, viewport: NARROW });
    try {
      const page = await context.newPage();
      await startAsGuest(page, app.server.url);
      await page.waitForFunction(() => document.documentElement.lang === "ru");
      await emailSignIn(page, "brand-default@example.com");
      await expect
        .poll(async () => (await app.server.db.user.findUniqueOrThrow({ where: { email: "brand-default@example.com" } })).language, { timeout: 15_000 })
        .toBe("ru");
      expect(await page.evaluate(() => document.documentElement.lang)).toBe("ru");
    } finally {
      await context.close();
      await app.server.db.siteSetting.delete({ where: { key: "brand" } });
    }
  });
});
