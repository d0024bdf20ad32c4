import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { visitor } from "../db-utils.ts";
import { photo } from "../fixtures/media.ts";
import { staffMember } from "../staff-utils.ts";
import { screenshot } from "./browser.ts";
import { signInToConsole } from "./console-build.ts";
import { consoleForThisFile } from "./console-per-file.ts";

/** Issue 35 item 7: the grouped menu on a desktop and a phone, a console that fits a phone, and a reported video's poster. */
const app = consoleForThisFile();
let reportId: number;

beforeAll(async () => {
  // a reported video whose file is no real video: only its poster can show a picture
  const owner = await visitor(app.server);
  const [key, posterKey] = [`out/menu-e2e-${owner.userId}.mp4`, `out/menu-e2e-${owner.userId}.webp`];
  await app.server.services.storage.put(key, Buffer.from("not really a video"), "video/mp4");
  await app.server.services.storage.put(posterKey, await photo(320, 180, "webp"), "image/webp");
  const task = await app.server.db.generationTask.create({
    data: { userId: owner.userId, mode: "image_to_video", engine: "local", status: "succeeded", cost: 1, input: {}, isPublic: true, outputKey: key, posterKey },
  });
  const report = await app.server.db.report.create({
    data: { targetType: "task", targetId: task.id, targetUserId: owner.userId, reason: "non_consensual", details: "That is me" },
  });
  reportId = report.id;
}, 300_000);

const fits = (page: Page) => page.evaluate(() => document.scrollingElement?.scrollWidth ?? Number.POSITIVE_INFINITY);

describe("the console's menu and layout in Chromium", () => {
  it("admin and support see their groups at 1280 px; at 360 px the page is no wider than the phone and the menu opens in groups", {
    timeout: 120_000,
  }, async () => {
    for (const role of ["admin", "support"] as const) {
      const page = await signInToConsole(app.browser, app.server.url, await staffMember(app.server, [role]), 1280);
      await page.goto(`${app.server.url}/console/users`);
      await page.waitForSelector(".RaDatagrid-table tbody tr");
      const groups = () => page.$$eval("[data-menu-toggle]", (els) => els.map((e) => e.getAttribute("data-menu-toggle")));
      await expect
        .poll(groups)
        .toEqual(role === "admin" ? ["users", "shop", "content", "safety", "marketing", "engines", "system"] : ["users", "shop", "engines", "system"]);
      await screenshot(page, `console-menu-${role}-1280`);
      // a folded group hides its entries and stays folded after a reload
      await page.click("[data-menu-toggle='shop']");
      await page.locator(".RaSidebar-fixed a[href='/console/orders']").waitFor({ state: "detached" });
      await page.reload();
      await page.waitForSelector("[data-menu-toggle='shop'][aria-expanded='false']");
      expect(await page.locator(".RaSidebar-fixed a[href='/console/orders']").count()).toBe(0);
      await page.click("[data-menu-toggle='shop']");
      await page.waitForSelector(".RaSidebar-fixed a[href='/console/orders']");

      await page.setViewportSize({ width: 360, height: 740 });
      await page.goto(`${app.server.url}/console/users`);
      await page.waitForSelector(".RaDatagrid-table tbody tr");
      expect(await fits(page)).toBeLessThanOrEqual(360);
      await screenshot(page, `console-users-${role}-360`);
      await page.click('header button[aria-label="Open menu"]');
      await page.waitForSelector(".MuiDrawer-modal [data-menu-toggle='users']");
      // the drawer slides in; the screenshot waits until it is still
      await page.waitForFunction(() => getComputedStyle(document.querySelector(".MuiDrawer-modal .MuiDrawer-paper")!).transform === "none");
      await screenshot(page, `console-menu-${role}-360`);
      await page.close();
    }
  });

  it("a reported video shows its poster, and the report queue shows thumbnails", { timeout: 60_000 }, async () => {
    const page = await signInToConsole(app.browser, app.server.url, await staffMember(app.server, ["moderator"]), 360);
    await page.goto(`${app.server.url}/console/reports`);
    const thumb = page.locator(`[data-report-thumb]`).first();
    await thumb.waitFor();
    await expect.poll(() => thumb.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(320);
    expect(await fits(page)).toBeLessThanOrEqual(360);
    await screenshot(page, "console-reports-thumbnails-360");
    await page.goto(`${app.server.url}/console/reports/${reportId}/show`);
    const poster = await page.locator("[data-preview-kind='video'] video").getAttribute("poster");
    expect(poster).toContain("/api/media/file?");
    // the poster is a picture the browser can show, not a broken link
    const width = await page.evaluate(
      (src) =>
        new Promise<number>((resolve) =>
          Object.assign(new Image(), { onload: (e: Event) => resolve((e.target as HTMLImageElement).naturalWidth), onerror: () => resolve(0), src }),
        ),
      poster!,
    );
    expect(width).toBe(320);
    await screenshot(page, "console-report-video-poster-360");
    await page.close();
  });
});
