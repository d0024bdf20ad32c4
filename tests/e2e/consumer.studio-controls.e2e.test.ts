import fs from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser } from "./browser.ts";
import { ensureConsumerBuild, newAppContext, pageShot, startAppServer } from "./consumer-app.ts";
import { mediaDir, photo } from "./consumer-media.ts";
import { startWorkerFor } from "../generation-utils.ts";
import { startFakeComfy, type FakeComfy } from "../fixtures/fake-comfyui.ts";

/**
 * Issue 31 item 5 and issue 30 item 8 at 360 px in every language: the studio shows the controls the engine honours
 * (decision 273) and hides the others, the mode switch is an even grid, text to video has its screen, the image
 * creator takes a reference picture, and the pickers offer the person's earlier uploads.
 */
const LANGUAGES = ["en", "ja", "ko", "ru"] as const;
const PHONE = { width: 360, height: 800 };

/** The studio as a new guest in `language`, on a phone, past the age gate and the flash sale. */
async function studio(browser: Browser, url: string, language: (typeof LANGUAGES)[number]): Promise<Page> {
  const context = await newAppContext(browser, { adult: true, language, viewport: PHONE });
  await context.addInitScript(() => localStorage.setItem("reverie_flash_sale_seen", String(Date.now())));
  const page = await context.newPage();
  await page.goto(`${url}/home`);
  await page.getByTestId("try-guest").click();
  await page.waitForURL(/\/creationStudio$/);
  await page.getByTestId("mode-switch").waitFor();
  return page;
}

/** The quote has arrived (the controls come with it). */
const quoted = (page: Page) => page.locator('[data-testid="price"]:not([data-price=""])').waitFor();

/** Test ids among `ids` whose element reaches past the creator's card on the right. */
const outsideCard = (page: Page, ids: string[]) =>
  page.evaluate((list) => {
    const card = document.querySelector('[data-testid="photo-picker"], [data-testid="prompt"], [data-testid="video-prompt"]')!.closest(".MuiPaper-root")!;
    const right = card.getBoundingClientRect().right;
    return list.filter((id) => {
      const el = document.querySelector(`[data-testid="${id}"]`);
      return el !== null && el.getBoundingClientRect().right > right + 0.5;
    });
  }, ids);

describe("consumer app: the studio's controls on the local engine, 360 px", () => {
  let server: Awaited<ReturnType<typeof startAppServer>>;
  let worker: { stop(): Promise<void> } | undefined;
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    await ensureConsumerBuild();
    [server, browser, dir] = await Promise.all([startAppServer({ FREE_GENERATIONS: "4" }), launchBrowser(), mediaDir()]);
    worker = await startWorkerFor(server);
  }, 180_000);
  afterAll(async () => {
    await worker?.stop();
    await browser?.close();
    await server?.stop();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it("an even mode switch; no motion prompt where the engine ignores it; text to video; a reference picture from an earlier upload", {
    timeout: 400_000,
  }, async () => {
    const file = await photo(dir);
    for (const language of LANGUAGES) {
      const page = await studio(browser, server.url, language);

      // the mode switch: two equal cells a row, no staggered rows, inside the card
      const cells = await page.evaluate(() =>
        [...document.querySelectorAll('[data-testid="mode-switch"] > button')].map((b) => {
          const r = b.getBoundingClientRect();
          return { top: Math.round(r.top), left: Math.round(r.left), width: Math.round(r.width), height: Math.round(r.height) };
        }),
      );
      expect(cells).toHaveLength(4);
      expect(new Set(cells.map((c) => c.top)).size, language).toBe(2);
      expect(new Set(cells.map((c) => c.left)).size, language).toBe(2);
      expect(Math.max(...cells.map((c) => c.width)) - Math.min(...cells.map((c) => c.width))).toBeLessThanOrEqual(1);
      expect(await outsideCard(page, ["mode-switch"])).toEqual([]);
      await pageShot(page, `studio-modes-${language}-360`);

      // image to video on the local engine: it moves the photo by the template, so no motion prompt and no seed
      await quoted(page);
      expect(await page.getByTestId("video-prompt").count()).toBe(0);
      expect(await page.getByTestId("more-settings").count()).toBe(0);
      // a photo uploaded here is offered again later
      await page.getByTestId("consent").check();
      const chooser = page.waitForEvent("filechooser");
      await page.getByTestId("photo-choose").click();
      await (await chooser).setFiles(file);
      await page.getByTestId("crop-confirm").click();
      await page.getByTestId("photo-preview").waitFor();
      const uploadId = (await server.db.upload.findFirstOrThrow({ orderBy: { id: "desc" } })).id;

      // text to video: the prompt, the aspect and the seed, which the local engine draws from
      await page.getByTestId("mode-text_to_video").click();
      await page.getByTestId("video-prompt").fill("rain on a window at night");
      await quoted(page);
      await page.getByTestId("aspect").getByText("9:16").click();
      await page.getByTestId("more-settings").click();
      await page.getByTestId("seed-input").fill("4242");
      expect(await page.getByTestId("negative-prompt").count()).toBe(0);
      expect(await outsideCard(page, ["video-prompt", "aspect", "seed-input"])).toEqual([]);
      await pageShot(page, `studio-text-video-${language}-360`);
      await page.getByTestId("generate").click();
      await page.waitForURL(/task=\d+/);
      const videoTask = Number(new URL(page.url()).searchParams.get("task"));
      await page.locator('[data-testid="task-progress"][data-status="succeeded"]').waitFor({ timeout: 90_000 });
      const t2v = await server.db.generationTask.findUniqueOrThrow({ where: { id: videoTask } });
      expect(t2v.mode).toBe("text_to_video");
      expect(t2v.input).toMatchObject({ prompt: "rain on a window at night", aspect: "9:16", seed: 4242 });

      // the image creator: a reference picture, picked from the earlier uploads without uploading again
      await page.getByTestId("tab-images").click();
      await page.getByTestId("earlier-image").waitFor();
      await pageShot(page, `studio-earlier-${language}-360`);
      await page.getByTestId("earlier-image").getByTestId("earlier-item").first().click();
      await page.getByTestId("reference-picture").getByTestId("photo-preview").waitFor();
      await page.getByTestId("prompt").fill("a quiet harbour");
      expect(await outsideCard(page, ["reference-picture", "earlier-image"])).toEqual([]);
      await pageShot(page, `studio-reference-${language}-360`);
      await page.getByTestId("generate-images").click();
      await page.waitForURL(/task=\d+/);
      const imageTask = Number(new URL(page.url()).searchParams.get("task"));
      await page.locator('[data-testid="task-progress"][data-status="succeeded"]').waitFor({ timeout: 90_000 });
      const i2i = await server.db.generationTask.findUniqueOrThrow({ where: { id: imageTask } });
      expect(i2i.input).toMatchObject({ prompt: "a quiet harbour", sources: { image_id: uploadId } });
      await page.context().close();
    }
  });
});

describe("consumer app: the studio's controls on a GPU engine, 360 px", () => {
  let comfy: FakeComfy;
  let server: Awaited<ReturnType<typeof startAppServer>>;
  let browser: Browser;

  beforeAll(async () => {
    await ensureConsumerBuild();
    comfy = await startFakeComfy();
    [server, browser] = await Promise.all([
      startAppServer({ GENERATION_ENGINE: "comfyui", COMFYUI_URLS: comfy.url, COMFYUI_HEALTH_SECONDS: "0.3" }),
      launchBrowser(),
    ]);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await comfy?.close();
  });

  it("image to video shows the motion prompt and the settings its workflow takes", { timeout: 200_000 }, async () => {
    for (const language of LANGUAGES) {
      const page = await studio(browser, server.url, language);
      await quoted(page);
      await page.getByTestId("video-prompt").waitFor();
      await page.getByTestId("more-settings").click();
      await page.getByTestId("negative-prompt").waitFor();
      await page.getByTestId("seed-input").waitFor();
      expect(await outsideCard(page, ["video-prompt", "negative-prompt", "seed-input"])).toEqual([]);
      await pageShot(page, `studio-motion-prompt-${language}-360`);
      await page.context().close();
    }
  });
});
