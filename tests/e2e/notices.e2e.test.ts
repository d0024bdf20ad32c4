import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visitor } from "../db-utils.ts";
import { staffMember, type StaffLogin } from "../staff-utils.ts";
import { launchBrowser, screenshot } from "./browser.ts";
import { ensureConsoleBuilt, signInToConsole } from "./console-build.ts";
import { ensureConsumerBuild, newAppContext, pageShot, startAppServer } from "./consumer-app.ts";

/** Issue 19 item 6: the public report form (no account, 360 px, four languages) and the moderator's appeal flow. */
let server: Awaited<ReturnType<typeof startAppServer>>;
let browser: Browser;
let decider: StaffLogin;
let reviewer: StaffLogin;

beforeAll(async () => {
  await Promise.all([ensureConsumerBuild(), ensureConsoleBuilt()]);
  server = await startAppServer({ RATE_LIMIT_REPORTS_PER_HOUR: "1000" });
  browser = await launchBrowser();
  [decider, reviewer] = [await staffMember(server, ["moderator"]), await staffMember(server, ["moderator"])];
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const PHONE = { width: 360, height: 780 };
const sharedTask = async (userId: number) => {
  const key = `out/e2e-${userId}-${Date.now()}.png`;
  // a real picture, so the console's preview shows something
  const sharp = (await import("sharp")).default;
  await server.services.storage.put(
    key,
    await sharp({ create: { width: 240, height: 320, channels: 3, background: { r: 200, g: 90, b: 120 } } })
      .png()
      .toBuffer(),
    "image/png",
  );
  return server.db.generationTask.create({
    data: { userId, mode: "text_to_image", engine: "local", status: "succeeded", cost: 1, input: {}, isPublic: true, outputKey: key },
  });
};

async function noHorizontalScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

describe("the public report form", () => {
  it("fits a 360 px phone in every language, is linked from the footer, and files a notice without an account", { timeout: 120_000 }, async () => {
    for (const language of ["ja", "ko", "ru", "en"] as const) {
      const context = await newAppContext(browser, { adult: true, language, viewport: PHONE });
      await context.addInitScript(() => localStorage.setItem("reverie_flash_sale_seen", String(Date.now())));
      const page = await context.newPage();
      await page.goto(`${server.url}/report-content`);
      await page.getByTestId("report-content-page").waitFor();
      await noHorizontalScroll(page);
      await pageShot(page, `notices-report-form-360-${language}`);
      if (language !== "en") {
        await context.close();
        continue;
      }
      // the footer leads here
      await page.goto(`${server.url}/home`);
      await page.getByTestId("footer-report-content").click();
      await page.waitForURL(/\/report-content$/);

      const owner = await visitor(server);
      const task = await sharedTask(owner.userId);
      await page.getByTestId("notice-url").fill(`${server.url}/home?item=${task.id}`);
      await page.getByTestId("notice-email").fill("depicted@example.com");
      await page.getByTestId("notice-details").fill("This is me and I never agreed to it.");
      // a removal request without the sworn statement is stopped in the browser
      await page.getByTestId("notice-send").click();
      expect(await page.getByTestId("notice-problem").innerText()).toBe("A removal request needs the sworn statement");
      await page.getByTestId("notice-sworn").click();
      await page.getByTestId("notice-send").click();
      await page.getByTestId("notice-sent").waitFor();
      await pageShot(page, "notices-report-form-sent-360-en");
      const filed = await server.db.report.findFirstOrThrow({ where: { targetType: "task", targetId: task.id } });
      expect(filed).toMatchObject({ source: "notice", reason: "non_consensual", contactEmail: "depicted@example.com", reporterUserId: null, status: "open" });
      expect(await page.getByTestId("notice-sent").innerText()).toContain(String(filed.id));
      await context.close();
    }
  });
});

const signIn = (s: StaffLogin) => signInToConsole(browser, server.url, s);

describe("the moderator's appeal flow", () => {
  it("the queue shows the clock and the preview; the deciding moderator cannot decide the appeal; another reverses it and the content is back", {
    timeout: 180_000,
  }, async () => {
    const owner = await visitor(server);
    const task = await sharedTask(owner.userId);
    const reportId = (
      await server.http
        .post("/api/notices/report")
        .send({ url: `/home?item=${task.id}`, reason: "non_consensual", email: "n@example.com", sworn: true })
        .expect(200)
    ).body.data.id as number;
    // an older one that has passed the 48-hour target
    const late = await sharedTask(owner.userId);
    const lateId = (
      await server.http
        .post("/api/notices/report")
        .send({ url: `/home?item=${late.id}`, reason: "impersonation", email: "n@example.com", sworn: true })
        .expect(200)
    ).body.data.id as number;
    await server.db.report.update({ where: { id: lateId }, data: { createdAt: new Date(Date.now() - 60 * 3600_000) } });

    const first = await signIn(decider);
    await first.goto(`${server.url}/console/reports`);
    await first.locator("[data-clock='breached']").first().waitFor();
    await screenshot(first, "notices-console-queue-clock");
    await first.goto(`${server.url}/console/reports/${reportId}/show`);
    await first.locator("[data-preview-kind='image'] img").waitFor();
    expect(await first.locator("[data-preview-kind='image'] img").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(240);
    await screenshot(first, "notices-console-report-preview");
    await first.click('[data-action="reports-takedown"]');
    await first.fill('textarea[name="reason"]', "Shown without consent");
    await first.click('[data-submit="reports-takedown"]');
    await expect.poll(async () => (await server.db.generationTask.findUniqueOrThrow({ where: { id: task.id } })).state).toBe("removed");

    // the owner reads the statement on /notices (360 px) and appeals there
    const context = await newAppContext(browser, { adult: true, viewport: PHONE });
    await context.addInitScript((token) => {
      localStorage.setItem("reverie_flash_sale_seen", String(Date.now()));
      localStorage.setItem("reverie_token", token);
    }, owner.token);
    const phone = await context.newPage();
    await phone.goto(`${server.url}/notices`);
    const card = phone.locator("[data-testid^='notice-']").first();
    await card.waitFor();
    expect(await card.innerText()).toContain("Your content was removed");
    expect(await card.getByTestId("decision-ground").innerText()).toBe("Ground: an intimate image shared without consent");
    expect(await card.getByTestId("decision-automated").innerText()).toBe("Decided by a moderator");
    await phone.getByTestId("appeal-text").fill("This is my own face, I consented and can prove it.");
    await phone.getByTestId("appeal-send").click();
    await phone.getByTestId("appeal-status").waitFor();
    await noHorizontalScroll(phone);
    await pageShot(phone, "notices-consumer-notices-appealed-360");
    const appeal = await server.db.appeal.findFirstOrThrow({ where: { decision: { targetType: "task", targetId: task.id } } });

    // the moderator who decided sees the appeal but no buttons to decide it
    await first.goto(`${server.url}/console/appeals/${appeal.id}/show`);
    await first.locator("[data-same-moderator]").first().waitFor();
    expect(await first.locator('[data-action="appeals-reverse"]').count()).toBe(0);
    await screenshot(first, "notices-console-appeal-same-moderator");
    await first.close();

    const second = await signIn(reviewer);
    await second.goto(`${server.url}/console/appeals`);
    await second.locator(`text=This is my own face`).first().waitFor();
    await screenshot(second, "notices-console-appeals-queue");
    await second.goto(`${server.url}/console/appeals/${appeal.id}/show`);
    await second.click('[data-action="appeals-reverse"]');
    await second.fill('textarea[name="reason"]', "Consent confirmed");
    await second.click('[data-submit="appeals-reverse"]');
    await expect.poll(async () => (await server.db.generationTask.findUniqueOrThrow({ where: { id: task.id } })).state).toBe("active");
    expect((await server.db.appeal.findUniqueOrThrow({ where: { id: appeal.id } })).status).toBe("reversed");
    await second.reload();
    await second.locator("text=reversed").first().waitFor();
    await screenshot(second, "notices-console-appeal-reversed");

    // the person sees the outcome
    await phone.reload();
    await phone.getByTestId("appeal-status").waitFor();
    expect(await phone.getByTestId("appeal-status").innerText()).toContain("Your appeal was accepted");
    await pageShot(phone, "notices-consumer-notices-reversed-360");

    await second.goto(`${server.url}/console/transparency`);
    await second.locator("[data-card='time-to-action']").waitFor();
    await screenshot(second, "notices-console-transparency");
    await second.close();
    await context.close();
  });
});
