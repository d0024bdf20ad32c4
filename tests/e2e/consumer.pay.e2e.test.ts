import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { newAppContext, pageShot } from "./consumer-app.ts";
import { appForThisFile, startAsGuest } from "./app-per-file.ts";

describe("consumer app: buying credits through the sandbox checkout", () => {
  const app = appForThisFile();

  async function guestWithDialog(page: Page): Promise<number> {
    await startAsGuest(page, app.server.url);
    const points = Number(await page.getByTestId("balance").getAttribute("data-points"));
    await page.getByTestId("balance").click();
    await page.getByTestId("buy-credits").waitFor();
    await page.getByTestId("best-value").waitFor();
    return points;
  }

  async function startSandboxCheckout(page: Page): Promise<void> {
    await page.getByTestId("pay").click();
    expect(await page.getByTestId("buy-error").innerText()).toBe("Please agree to the terms first");
    await page.getByTestId("agree-terms").check();
    await page.getByTestId("provider-sandbox").click();
    await page.getByTestId("pay").click();
    await page.waitForURL(/\/sandbox-pay\//);
  }

  const balance = async (page: Page) => Number(await page.getByTestId("balance").getAttribute("data-points"));

  it("pay: the callback page polls until paid and only then the balance grows", async () => {
    const context = await newAppContext(app.browser, { adult: true });
    const page = await context.newPage();
    const before = await guestWithDialog(page);
    await pageShot(page, "consumer-buy-credits");
    await startSandboxCheckout(page);
    await page.locator("button.pay").click();
    await page.waitForURL(/\/hcpayPayCallback\?order_id=\d+/);
    await page.locator('[data-testid="payment-result"][data-phase="paid"]').waitFor();
    await page.waitForFunction((b) => Number(document.querySelector('[data-testid="balance"]')?.getAttribute("data-points")) > b, before);
    const order = await app.server.db.order.findFirstOrThrow({ orderBy: { id: "desc" } });
    expect(order.status).toBe("paid");
    expect(await balance(page)).toBe(before + order.credits);
    expect(await page.evaluate(() => localStorage.getItem("reverie_payment_verification"))).toBeNull();
    await pageShot(page, "consumer-payment-paid");
    await context.close();
  });

  it("decline: the failure message, the retry countdown and billing support; the balance stays", async () => {
    const context = await newAppContext(app.browser, { adult: true });
    const page = await context.newPage();
    const before = await guestWithDialog(page);
    await startSandboxCheckout(page);
    await page.locator("button.decline").click();
    await page.waitForURL(/\/hcpayPayCallback/);
    await page.locator('[data-testid="payment-result"][data-phase="failed"]').waitFor();
    expect(await page.getByTestId("payment-failed-message").innerText()).toBe("We're sorry, your payment didn't go through");
    expect(await page.getByTestId("payment-retry").isDisabled()).toBe(true);
    expect(await page.getByTestId("payment-retry").innerText()).toMatch(/Try again in \d+ s/);
    await pageShot(page, "consumer-payment-declined");
    await page.getByTestId("payment-support").click();
    await page.getByTestId("support-panel").waitFor();
    expect(await balance(page)).toBe(before);
    await context.close();
  });

  it("3-D Secure and a reload: polling carries on through 3ds_pending, resumes after the reload and ends paid", async () => {
    const context = await newAppContext(app.browser, { adult: true });
    const page = await context.newPage();
    page.on("dialog", (d) => void d.accept());
    const before = await guestWithDialog(page);
    await startSandboxCheckout(page);
    await page.locator("button.secure").click();
    await page.waitForURL(/\/challenge/);
    const challengeUrl = page.url();
    const order = await app.server.db.order.findFirstOrThrow({ orderBy: { id: "desc" } });
    expect(order.status).toBe("threeDsPending");

    // the buyer comes back to Reverie while the bank's check is still open
    await page.goto(`${app.server.url}/hcpayPayCallback?order_id=${order.id}`);
    const result = page.getByTestId("payment-result");
    await page.locator('[data-testid="payment-result"][data-status="3ds_pending"]').waitFor();
    await page.waitForFunction(() => Number(/(\d+)/.exec(document.querySelector('[data-testid="payment-tries"]')?.textContent ?? "")?.[1]) >= 2);
    await pageShot(page, "consumer-payment-verifying");
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("reverie_payment_verification") ?? "null"));
    expect(stored).toMatchObject({ orderId: order.id, provider: "sandbox" });
    expect(stored.tries).toBeGreaterThanOrEqual(1);

    await page.reload();
    await page.locator('[data-testid="payment-result"][data-phase="verifying"]').waitFor();
    const resumedTries = Number(/Check (\d+)/.exec(await page.getByTestId("payment-tries").innerText())?.[1]);
    expect(resumedTries).toBeGreaterThanOrEqual(stored.tries);
    expect(await balance(page)).toBe(before);

    // the bank's challenge passes (in another window, as a real one would)
    const form = new URLSearchParams({ result: "pass" });
    await fetch(challengeUrl, { method: "POST", body: form, headers: { "content-type": "application/x-www-form-urlencoded" }, redirect: "manual" });
    await result.and(page.locator('[data-phase="paid"]')).waitFor();
    await page.waitForFunction((b) => Number(document.querySelector('[data-testid="balance"]')?.getAttribute("data-points")) > b, before);
    expect((await app.server.db.order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe("paid");
    await context.close();
  });
});
