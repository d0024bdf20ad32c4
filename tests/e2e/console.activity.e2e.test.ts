import { beforeAll, describe, expect, it } from "vitest";
import { newStaff, type StaffCredentials } from "../staff-utils.ts";
import { screenshot } from "./browser.ts";
import { signInToConsole } from "./console-build.ts";
import { consoleForThisFile } from "./console-per-file.ts";

const app = consoleForThisFile();
let admin: StaffCredentials;

beforeAll(async () => {
  admin = await newStaff(app.server, ["admin"]);
}, 300_000);

/** Issue 32 item 8 (docs/decisions/309): the dashboard's activity per day, and the way to a fraudulent tip, at 360 px. */
describe("console: activity per day on the dashboard", () => {
  it("charts likes and follows of today, and leads from the chart to the tips list, in English and Russian", { timeout: 120_000 }, async () => {
    const [a, b] = await Promise.all(
      ["a", "b"].map(async () => (await app.server.http.post("/api/login/visitor").expect(200)).body.data.user_info.id as number),
    );
    const task = await app.server.db.generationTask.create({
      data: { userId: a, mode: "text_to_image", engine: "local", status: "succeeded", cost: 1, input: {}, isPublic: true },
    });
    await app.server.db.galleryLike.create({ data: { taskId: task.id, userId: b } });
    const page0 = await app.server.db.creatorPage.create({ data: { userId: a, homeLink: "ActivityPage", title: "Activity" } });
    await app.server.db.subscription.create({ data: { creatorPageId: page0.id, userId: b } });

    const page = await signInToConsole(app.browser, app.server.url, admin, 360);
    const chart = page.locator('[data-chart="Activity per day"]');
    await chart.locator('.recharts-surface[role="application"]').waitFor();
    expect(await chart.locator(".recharts-legend-wrapper").innerText()).toMatch(/(?=[\s\S]*Likes)(?=[\s\S]*Follows)/);
    await chart.scrollIntoViewIfNeeded();
    await page.mouse.move(0, 0);
    await screenshot(page, "console-dashboard-activity-en-360");

    // the console's other language, as its language menu stores it (react-admin's store)
    await page.evaluate(() => localStorage.setItem("RaStore.locale", JSON.stringify("ru")));
    await page.reload();
    const ru = page.locator('[data-chart="Активность по дням"]');
    await ru.locator('.recharts-surface[role="application"]').waitFor();
    expect(await ru.locator(".recharts-legend-wrapper").innerText()).toMatch(/(?=[\s\S]*Лайки)(?=[\s\S]*Подписки)/);
    await ru.scrollIntoViewIfNeeded();
    await screenshot(page, "console-dashboard-activity-ru-360");
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);

    await ru.locator('[data-link="tips"]').click();
    await page.waitForURL(/\/console\/tips/);
    await page.close();
  });
});
