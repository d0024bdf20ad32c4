import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchBrowser } from "./browser.ts";
import { ensureConsumerBuild, newAppContext, pageShot, startAppServer } from "./consumer-app.ts";
import { startWorkerFor } from "../generation-utils.ts";

/**
 * The studio's generation controls: aspect ratio and seed reach the task, and the result shows its seed; the negative
 * prompt, which the local draft renderer does not use, is not offered (decision 273).
 */
describe("consumer app: generation controls", () => {
  let server: Awaited<ReturnType<typeof startAppServer>>;
  let worker: { stop(): Promise<void> } | undefined;
  let browser: Browser;

  beforeAll(async () => {
    await ensureConsumerBuild();
    // the re-run is a second paid task: enough free generations for both in both languages
    [server, browser] = await Promise.all([startAppServer({ FREE_GENERATIONS: "4" }), launchBrowser()]);
    worker = await startWorkerFor(server);
  }, 180_000);
  afterAll(async () => {
    await worker?.stop();
    await browser?.close();
    await server?.stop();
  });

  it("a guest makes a 16:9 picture with a seed, sees the seed on the result and re-runs it", { timeout: 120_000 }, async () => {
    for (const [language, width] of [
      ["en", 1280],
      ["ru", 360],
    ] as const) {
      const context = await newAppContext(browser, { adult: true, language, viewport: { width, height: 860 } });
      const page = await context.newPage();
      await page.goto(`${server.url}/home`);
      await page.getByTestId("try-guest").click();
      await page.waitForURL(/\/creationStudio$/);
      await page.getByTestId("tab-images").click();
      await page.getByTestId("prompt").fill("a lighthouse at dusk");
      await page.getByTestId("aspect").getByText("16:9").click();
      await page.getByTestId("more-settings").click();
      await page.getByTestId("seed-input").fill("1234");
      expect(await page.getByTestId("negative-prompt").count()).toBe(0);
      await pageShot(page, `consumer-controls-${language}-${width}`);
      // the controls stay inside their card (at 360 px in Russian the page itself is 377 px wide from the tabs and the
      // bottom navigation, with or without these controls)
      const outside = await page.evaluate(() => {
        const card = document.querySelector('[data-testid="generate-images"]')!.closest(".MuiPaper-root")!.getBoundingClientRect();
        return ["aspect", "more-settings", "seed-input"].filter(
          (id) => document.querySelector(`[data-testid="${id}"]`)!.getBoundingClientRect().right > card.right,
        );
      });
      expect(outside).toEqual([]);
      await page.getByTestId("generate-images").click();
      await page.waitForURL(/task=\d+/);
      const id = Number(new URL(page.url()).searchParams.get("task"));
      await page.locator('[data-testid="task-progress"][data-status="succeeded"]').waitFor({ timeout: 60_000 });
      await page.getByTestId("seed").waitFor();
      expect(await page.getByTestId("seed").innerText()).toContain("1234");
      const task = await server.db.generationTask.findUniqueOrThrow({ where: { id } });
      expect(task.input).toMatchObject({ seed: 1234, aspect: "16:9" });
      await pageShot(page, `consumer-result-seed-${language}-${width}`);
      // re-run with the same settings: a new task with the same seed, prompt and aspect
      await page.getByTestId("rerun").click();
      await page.waitForURL((u) => Number(u.searchParams.get("task")) > id);
      const again = Number(new URL(page.url()).searchParams.get("task"));
      await page.locator('[data-testid="task-progress"][data-status="succeeded"]').waitFor({ timeout: 60_000 });
      expect(await page.getByTestId("seed").innerText()).toContain("1234");
      const copy = await server.db.generationTask.findUniqueOrThrow({ where: { id: again } });
      expect(copy.input).toMatchObject({ prompt: "a lighthouse at dusk", seed: 1234, aspect: "16:9" });
      await context.close();
    }
  });
});
