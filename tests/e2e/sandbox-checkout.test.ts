import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { seedProducts } from "../../server/src/domains/products/products.seed.ts";
import { startTestServer } from "../server-utils.ts";
import { launchBrowser, screenshot } from "./browser.ts";

let s: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;

beforeAll(async () => {
  s = await startTestServer({}, undefined, { ownPublicUrl: true });
  await seedProducts(s.db);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await s.stop();
});

async function newOrder() {
  const login = await s.http.post("/api/login/visitor").expect(200);
  const token = login.body.data.token as string;
  const product = await s.db.product.findUniqueOrThrow({ where: { code: "flash_video" } });
  const res = await s.http.post("/api/order/createOrderAndPay").set("token", token).send({ product_id: product.id, agree_terms: true }).expect(200);
  return { token, ...(res.body.data as { order_id: number; pay_url: string }) };
}

describe("sandbox checkout in a browser", () => {
  it("pays with 3-D Secure through the hosted pages and lands on the callback route", async () => {
    const o = await newOrder();
    const page = await browser.newPage({ locale: "en-US" });
    await page.goto(o.pay_url);
    await expect(page.getByRole("button", { name: "Pay with 3-D Secure" }).isVisible()).resolves.toBe(true);
    expect(await page.textContent("main")).toContain("$1.99");
    await screenshot(page, "sandbox-checkout-en");
    await page.getByRole("button", { name: "Pay with 3-D Secure" }).click();
    await page.waitForURL(/\/challenge/);
    await screenshot(page, "sandbox-challenge-en");
    await page.getByRole("button", { name: "Confirm payment" }).click();
    await page.waitForURL(/\/hcpayPayCallback\?order_id=/);
    expect(new URL(page.url()).searchParams.get("order_id")).toBe(String(o.order_id));
    expect((await s.db.order.findUniqueOrThrow({ where: { id: o.order_id } })).status).toBe("paid");
    await page.goto(o.pay_url);
    expect(await page.textContent("h1")).toBe("This checkout is closed");
    await screenshot(page, "sandbox-closed-en");
    await page.close();
  });

  it("shows the page in the browser's language", async () => {
    const o = await newOrder();
    const page = await browser.newPage({ locale: "ja-JP", extraHTTPHeaders: { "accept-language": "ja" } });
    await page.goto(o.pay_url);
    expect(await page.textContent("h1")).toBe("サンドボックス決済");
    await screenshot(page, "sandbox-checkout-ja");
    await page.close();
  });
});
