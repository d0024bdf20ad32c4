import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser } from "./browser.ts";
import { ensureConsumerBuild, missingKeys, newAppContext, pageShot, storedToken, switchLanguage, usedKeys } from "./consumer-app.ts";
import { startTestServer } from "../server-utils.ts";
import { startFakeSmtp, type FakeSmtp } from "../fixtures/smtp.ts";

let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;
/** The login code reaches only its recipient (the outbox masks it), so the test reads the mailbox. */
let smtp: FakeSmtp;

beforeAll(async () => {
  await ensureConsumerBuild();
  smtp = await startFakeSmtp();
  server = await startTestServer({ SMTP_URL: smtp.url });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.close();
});

describe("consumer app: entering, guarding and leaving", () => {
  it("/ goes to /home behind the age gate; declining leaves, confirming is remembered", async () => {
    const context = await newAppContext(browser);
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    await page.waitForURL(/\/home$/);
    await page.getByTestId("age-gate").waitFor();
    await pageShot(page, "consumer-age-gate");
    await page.getByTestId("age-decline").click();
    await page.waitForURL("about:blank");

    await page.goto(`${server.url}/home`);
    await page.getByTestId("age-confirm").click();
    await page.getByTestId("age-gate").waitFor({ state: "detached" });
    await page.reload();
    await page.getByTestId("try-guest").waitFor();
    expect(await page.getByTestId("age-gate").count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem("reverie_age_confirmed"))).toBe("1");
    await pageShot(page, "consumer-home");
    await context.close();
  });

  it("the home page stores the landing URL's UTM and click ids and sends them with every call", async () => {
    const context = await newAppContext(browser, { adult: true });
    const page = await context.newPage();
    await page.goto(`${server.url}/home?utm_campaign=spring&utm_adset=set1&utm_ad=ad9&channel_id=tg&fbclid=fb123&cid=bm42`);
    await page.getByTestId("try-guest").waitFor();
    const stored = await page.evaluate(() => Object.fromEntries(Object.entries(localStorage).filter(([k]) => k.startsWith("reverie_"))));
    expect(stored).toMatchObject({
      reverie_utm_campaign: "spring",
      reverie_utm_adset: "set1",
      reverie_utm_ad: "ad9",
      reverie_channel_id: "tg",
      reverie_fbclid: "fb123",
      reverie_cid: "bm42",
    });
    expect(await page.evaluate(() => document.cookie)).toContain("reverie_bemob_cid=bm42");

    const visitor = page.waitForRequest((r) => r.url().includes("/api/login/visitor"));
    await page.getByTestId("try-guest").click();
    const req = await visitor;
    expect(req.headers()).toMatchObject({ "utm-campaign": "spring", "utm-adset": "set1", "utm-ad": "ad9", "channel-id": "tg", "bemob-click-id": "bm42" });
    expect(new URL(req.url()).searchParams.get("t")).toMatch(/^\d{13}$/);
    await page.waitForURL(/\/creationStudio$/);
    const token = await storedToken(page);
    expect(token).toBeTruthy();
    const user = await server.db.user.findFirstOrThrow({ where: { loginType: "visitor" }, orderBy: { id: "desc" } });
    expect(user).toMatchObject({ utmCampaign: "spring", channelId: "tg", bemobClickId: "bm42" });

    const info = page.waitForRequest((r) => r.url().includes("/api/Personal/personal_info"));
    await page.getByRole("link", { name: "Home" }).first().click();
    expect((await info).headers().token).toBe(token);
    await context.close();
  });

  it("unknown paths show the not-found page with a way home", async () => {
    const context = await newAppContext(browser, { adult: true });
    const page = await context.newPage();
    const res = await page.goto(`${server.url}/no/such/page`);
    expect(res?.status()).toBe(200);
    await page.getByTestId("not-found").waitFor();
    expect(await page.getByTestId("not-found").innerText()).toContain("Page not found");
    await pageShot(page, "consumer-not-found");
    await page.getByTestId("back-home").click();
    await page.waitForURL(/\/home$/);
    // the API keeps its own 404s
    const api = await page.request.get(`${server.url}/api/no-such-call`);
    expect(api.status()).toBe(404);
    expect(await api.json()).toMatchObject({ code: 404, msg: "The access resource does not exist" });
    await context.close();
  });

  it("/function without a stored token goes to /home; with one it shows the user's space", async () => {
    const context = await newAppContext(browser, { adult: true });
    const page = await context.newPage();
    await page.goto(`${server.url}/function`);
    await page.waitForURL(/\/home$/);
    await page.getByTestId("try-guest").click();
    await page.waitForURL(/\/creationStudio$/);
    await page.goto(`${server.url}/function`);
    await page.getByTestId("function-page").waitFor();
    expect(page.url()).toMatch(/\/function$/);
    await context.close();
  });

  it("a 401 from the API logs the user out: from /function to /home, elsewhere a reload", async () => {
    const context = await newAppContext(browser, { adult: true });
    const page = await context.newPage();
    await page.goto(`${server.url}/home`);
    await page.getByTestId("try-guest").click();
    await page.waitForURL(/\/creationStudio$/);
    const token = (await storedToken(page))!;
    await page.goto(`${server.url}/function`);
    await page.getByTestId("function-page").waitFor();

    // the session is revoked on the server (as a ban or a logout elsewhere would)
    await server.db.session.updateMany({ data: { revokedAt: new Date() } });
    // the page's own next call (the flash-sale check, a poll) may meet the 401 first and leave for /home itself, which
    // aborts this reload: either way the app must end on /home signed out
    await page.reload().catch((err: Error) => {
      if (!err.message.includes("ERR_ABORTED")) throw err;
    });
    await page.waitForURL(/\/home$/);
    await page.waitForFunction(() => localStorage.getItem("reverie_token") === null);
    await page.getByTestId("open-login").waitFor();

    // a stale token on any other page: the page reloads signed out
    await page.evaluate((t) => localStorage.setItem("reverie_token", t), token);
    await page.goto(`${server.url}/agreement`);
    await page.waitForFunction(() => localStorage.getItem("reverie_token") === null);
    await page.getByTestId("open-login").waitFor();
    expect(page.url()).toMatch(/\/agreement$/);
    await context.close();
  });

  it("add to home screen tells browsers without an install prompt that they are unsupported", async () => {
    const context = await newAppContext(browser, { adult: true });
    const page = await context.newPage();
    await page.goto(`${server.url}/home`);
    await page.getByTestId("try-guest").click();
    await page.waitForURL(/\/creationStudio$/);
    await page.getByTestId("account-menu").click();
    await page.getByRole("menuitem", { name: "Add to home screen" }).click();
    const outcome = page.getByTestId("install-outcome");
    await outcome.waitFor();
    expect(await outcome.getAttribute("data-outcome")).toBe("unsupported");
    expect(await outcome.innerText()).toContain("does not support adding to the home screen");
    const manifest = await page.request.get(`${server.url}/manifest.webmanifest`);
    expect((await manifest.json()).start_url).toBe("/home");
    expect((await page.request.get(`${server.url}/sw.js`)).status()).toBe(200);
    await context.close();
  });

  it("the billing-support bubble opens the support panel", async () => {
    const context = await newAppContext(browser, { adult: true });
    const page = await context.newPage();
    await page.goto(`${server.url}/agreement#terms`);
    await page.getByTestId("support-bubble").click();
    await page.getByTestId("support-panel").waitFor();
    await page.getByTestId("support-guest").waitFor();
    await pageShot(page, "consumer-agreement-support");
    await context.close();
  });
});

describe("consumer app on a phone", () => {
  it("the bottom bar leads to Video, HomeLink, Results, Buy Credits and Video Plus", async () => {
    const context = await newAppContext(browser, { adult: true, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/home`);
    await page.getByTestId("try-guest").waitFor();
    await pageShot(page, "consumer-home-phone");
    await page.getByTestId("bottom-video").click();
    await page.waitForURL(/\/creationStudio$/);
    await page.getByTestId("studio-try-guest").click();
    await page.getByTestId("photo-picker").waitFor();
    await pageShot(page, "consumer-studio-phone");
    await page.getByTestId("bottom-video-plus").click();
    // Video Plus: the video made from words, which needs no photo (decision 274)
    await page.waitForURL(/mode=text_to_video/);
    await page.getByTestId("video-prompt").waitFor();
    await page.getByTestId("bottom-results").click();
    await page.waitForURL(/\/function$/);
    await page.getByTestId("function-page").waitFor();
    await page.getByTestId("bottom-buy").click();
    await page.getByTestId("buy-credits").waitFor();
    await page.keyboard.press("Escape");
    await page.getByTestId("bottom-home").click();
    await page.waitForURL(/\/home$/);
    await context.close();
  });
});

describe("consumer app: email-code login", () => {
  it("checks the form with the SPEC messages, reads the code from the mailbox and signs in", async () => {
    const context = await newAppContext(browser, { adult: true });
    const page = await context.newPage();
    await page.goto(`${server.url}/home`);
    page.setDefaultTimeout(8000);
    await page.getByTestId("open-login").click();
    await page.getByTestId("login-dialog").waitFor();
    await pageShot(page, "consumer-login");

    await page.getByTestId("login-submit").click();
    expect(await page.getByTestId("login-dialog").innerText()).toContain("Please enter email");
    expect(await page.getByTestId("login-dialog").innerText()).toContain("Please enter verification code");
    await page.getByTestId("login-email").fill("not-an-email");
    await page.getByTestId("login-code").fill("12");
    await page.getByTestId("login-submit").click();
    expect(await page.getByTestId("login-dialog").innerText()).toContain("Please enter a valid email");
    expect(await page.getByTestId("login-dialog").innerText()).toContain("Please enter 4-6 digit verification code");

    const email = `reader-${Date.now()}@example.com`;
    await page.getByTestId("login-email").fill(email);
    await page.getByTestId("send-code").click();
    await page.getByText("We sent a code to your email.").waitFor();
    expect(await page.getByTestId("send-code").innerText()).toMatch(/Resend in \d+ s/);
    await page.getByTestId("login-code").fill("000000");
    await page.getByTestId("login-submit").click();
    const code = smtp.codeFor(email);
    if (code !== "000000") expect(await page.getByTestId("login-error").innerText()).toBe("Please enter the correct verification code");
    await page.getByTestId("login-code").fill(code);
    await page.getByTestId("login-submit").click();
    await page.getByTestId("login-dialog").waitFor({ state: "detached" });
    await page.getByTestId("account-menu").click();
    expect(await page.getByRole("menu").innerText()).toContain(email);
    expect(await page.evaluate(() => localStorage.getItem("reverie_loginType"))).toBe("registered");
    await context.close();
  });
});

describe("consumer app in Japanese, Korean and Russian", () => {
  /** What each language must show on the screen open now: every key the page used has its text, none is shown bare. */
  async function translated(page: Page, language: "ja" | "ko" | "ru") {
    const keys = await usedKeys(page);
    expect(keys.length).toBeGreaterThan(40);
    expect(missingKeys(language, keys), language).toEqual([]);
    // nothing on screen is an untranslated key path
    const text = await page.locator("body").innerText();
    expect(text, language).not.toMatch(/\b(home|studio|login|nav|msg|footer)\.[a-z]+/);
  }

  // one visitor: the switcher is proved on the home page, then each language is checked on the home page and the
  // studio by switching in place (the screens render the same whichever language came first)
  it("the language switcher changes the language and remembers it; home and creation studio render with every key translated in each", async () => {
    const context = await newAppContext(browser, { adult: true });
    const page = await context.newPage();
    await page.goto(`${server.url}/home`);
    expect(await page.evaluate(() => localStorage.getItem("reverie_language"))).toBeNull();
    expect(await page.getByTestId("try-guest").innerText()).toBe("Try it free");
    await page.getByTestId("language-switcher").click();
    await page.getByTestId("language-ko").click();
    await page.waitForFunction(() => document.documentElement.lang === "ko");
    expect(await page.getByTestId("try-guest").innerText()).toBe("무료로 체험하기");
    await page.reload();
    expect(await page.getByTestId("try-guest").innerText()).toBe("무료로 체험하기");
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("ko");

    for (const language of ["ko", "ja", "ru"] as const) {
      if (language !== "ko") await switchLanguage(page, language);
      await pageShot(page, `consumer-home-${language}`);
      await translated(page, language);
    }
    await page.getByTestId("try-guest").click();
    await page.waitForURL(/\/creationStudio$/);
    await page.getByTestId("photo-picker").waitFor();
    for (const language of ["ru", "ja", "ko"] as const) {
      if (language !== "ru") await switchLanguage(page, language);
      await page.getByTestId("tab-images").click();
      await page.getByTestId("prompt").waitFor();
      await page.getByTestId("tab-videos").click();
      await page.getByTestId("photo-picker").waitFor();
      await pageShot(page, `consumer-studio-${language}`);
      await translated(page, language);
    }
    await context.close();
  });
});
