import fs from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, screenshot } from "./browser.ts";
import { ensureConsumerBuild, newAppContext, startAppServer } from "./consumer-app.ts";
import { bytesFile, mediaDir, photo } from "./consumer-media.ts";

/** Issue 11 item 15: SPEC.md §8 texts that only sat in the locale files, each shown where its situation arises. */
describe("consumer app: upload and submit failures say what SPEC.md §8 says", () => {
  let server: Awaited<ReturnType<typeof startAppServer>>;
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    await ensureConsumerBuild();
    [server, browser, dir] = await Promise.all([startAppServer(), launchBrowser(), mediaDir()]);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  async function studio(): Promise<Page> {
    const context = await newAppContext(browser, { adult: true, viewport: { width: 390, height: 844 } });
    await context.addInitScript(() => localStorage.setItem("reverie_flash_sale_seen", String(Date.now())));
    const page = await context.newPage();
    await page.goto(`${server.url}/home`);
    await page.getByTestId("try-guest").click();
    await page.waitForURL(/\/creationStudio$/);
    await page.getByTestId("consent").check();
    return page;
  }

  async function cropAndUpload(page: Page): Promise<void> {
    await page.getByTestId("photo-input").setInputFiles(await photo(dir));
    await page.getByTestId("cropper").waitFor();
    await page.getByTestId("crop-confirm").click();
  }

  it("a photo upload that gets no answer: 'Failed to upload image, please try again'; one a proxy refuses as too large: 'Image size exceeded 10MB'", async () => {
    const page = await studio();
    await page.route("**/api/ImageUpload/upload*", (route) => route.abort("connectionreset"));
    await cropAndUpload(page);
    await page.getByTestId("upload-error").waitFor();
    expect(await page.getByTestId("upload-error").innerText()).toBe("Failed to upload image, please try again");
    await screenshot(page, "consumer-upload-failed");

    await page.unroute("**/api/ImageUpload/upload*");
    await page.route("**/api/ImageUpload/upload*", (route) =>
      route.fulfill({ status: 413, contentType: "text/html", body: "<html><body>413 Request Entity Too Large</body></html>" }),
    );
    await cropAndUpload(page);
    await page.locator('[data-testid="upload-error"]', { hasText: "Image size exceeded 10MB" }).waitFor();

    await page.unroute("**/api/ImageUpload/upload*");
    expect(await server.db.upload.count()).toBe(0);
    await page.context().close();
  });

  it("a video submit that gets no answer: 'Failed to generate video'; nothing is charged", async () => {
    const page = await studio();
    await cropAndUpload(page);
    await page.getByTestId("photo-preview").waitFor();
    await page.getByTestId("open-templates").click();
    await page.getByTestId("template-chooser").locator('button[data-testid^="template-"]').first().click();
    await page.getByTestId("template-chooser").waitFor({ state: "detached" });
    await page.route("**/api/Generation/picVideoSubmit*", (route) =>
      route.fulfill({ status: 502, contentType: "text/html", body: "<html>Bad Gateway</html>" }),
    );
    await page.getByTestId("generate").click();
    await page.getByTestId("submit-error").waitFor();
    expect(await page.getByTestId("submit-error").innerText()).toBe("Failed to generate video");
    await screenshot(page, "consumer-submit-failed");
    expect(await server.db.generationTask.count()).toBe(0);
    await page.context().close();
  });

  it("a video the browser cannot decode: 'Video parsing failed'; a file that is no video: 'Cannot parse video file'", async () => {
    const page = await studio();
    await page.getByTestId("mode-video_to_video").click();
    await page.getByTestId("video-uploader").waitFor();
    await page.getByTestId("video-input").setInputFiles(await bytesFile(dir, "broken.mp4", 4000));
    await page.getByText("Video parsing failed").waitFor();
    await page.getByTestId("video-input").setInputFiles(await bytesFile(dir, "notes.txt", 4000));
    await page.getByText("Cannot parse video file").waitFor();
    await page.context().close();
  });
});
