import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchBrowser } from "./browser.ts";
import { ensureConsumerBuild, newAppContext, pageShot, startAppServer } from "./consumer-app.ts";

/** Issue 34: a template whose engine cannot run it is shown but not sold (decision 237). */
describe("consumer app: a template that cannot run", () => {
  let server: Awaited<ReturnType<typeof startAppServer>>;
  let browser: Browser;

  beforeAll(async () => {
    await ensureConsumerBuild();
    [server, browser] = await Promise.all([startAppServer(), launchBrowser()]);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("is listed unavailable, without a price, and cannot be chosen; one that runs can", { timeout: 120_000 }, async () => {
    const data = { category: "Portrait", suitFor: "image", mode: "image_to_video" as const, engineParams: {}, creditPrice: 1 };
    // no ComfyUI server is configured here: a template of that engine cannot run
    const gpu = await server.db.template.create({ data: { ...data, name: "Needs a GPU", engine: "comfyui", sortOrder: 0 } });
    const local = await server.db.template.create({ data: { ...data, name: "Runs here", sortOrder: 1 } });
    const context = await newAppContext(browser, { adult: true, language: "ja", viewport: { width: 360, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/home`);
    await page.getByTestId("try-guest").click();
    await page.waitForURL(/\/creationStudio$/);
    await page.getByTestId("open-templates").click();
    const dialog = page.getByRole("dialog");
    const card = dialog.getByTestId(`template-${gpu.id}`);
    await card.waitFor();
    expect(await card.isDisabled()).toBe(true);
    expect(await card.getByTestId("template-unavailable").innerText()).toBe("現在ご利用いただけません");
    expect(await card.innerText()).not.toMatch(/クレジット/);
    const other = dialog.getByTestId(`template-${local.id}`);
    expect(await other.isDisabled()).toBe(false);
    expect(await other.innerText()).toMatch(/クレジット/);
    await pageShot(page, "consumer-template-unavailable-ja-360");
    // arriving with it chosen (a link from elsewhere): no price, and nothing to press
    await page.goto(`${server.url}/creationStudio?template=${gpu.id}`);
    await page.getByTestId("price-unavailable").waitFor();
    expect(await page.getByTestId("price-unavailable").innerText()).toBe("現在ご利用いただけません");
    expect(await page.getByTestId("generate").isDisabled()).toBe(true);
    await pageShot(page, "consumer-studio-unavailable-ja-360");
    await context.close();
  });

  it("a failed image task says so in the generic wording, not the video one", { timeout: 60_000 }, async () => {
    const context = await newAppContext(browser, { adult: true, language: "ko", viewport: { width: 360, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/home`);
    await page.getByTestId("try-guest").click();
    await page.waitForURL(/\/creationStudio$/);
    const user = await server.db.user.findFirstOrThrow({ where: { loginType: "visitor" }, orderBy: { id: "desc" } });
    const task = await server.db.generationTask.create({
      data: { userId: user.id, mode: "text_to_image", engine: "comfyui", status: "failed", cost: 1, paidWith: "credits", input: {}, finishedAt: new Date() },
    });
    await page.goto(`${server.url}/creationStudio?tab=images&task=${task.id}`);
    await page.locator('[data-testid="task-progress"][data-status="failed"]').waitFor();
    // Korean for "Generation failed" (the task state's wording), where a video says "Sorry, video generation failed"
    expect(await page.getByTestId("task-failed").innerText()).toBe("생성 실패");
    await pageShot(page, "consumer-image-task-failed-ko-360");
    await context.close();
  });
});
