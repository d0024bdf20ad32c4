import fs from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Download, Page } from "playwright-core";
import { downloadedFile, launchBrowser, screenshot } from "./browser.ts";
import { ensureConsumerBuild, newAppContext, pageShot, startAppServer } from "./consumer-app.ts";
import { mediaDir, photo } from "./consumer-media.ts";
import { grant, startWorkerFor } from "../generation-utils.ts";

const RENDER_TIMEOUT = 150_000;
const PHONE = { width: 390, height: 844 };

/** The file's first bytes name its real type: what its extension must say. */
function magicType(head: Buffer): string {
  if (head[0] === 0xff && head[1] === 0xd8) return "jpg";
  if (head.subarray(1, 4).toString("latin1") === "PNG") return "png";
  if (head.subarray(4, 8).toString("latin1") === "ftyp") return "mp4";
  return "unknown";
}

async function collectDownloads(page: Page, count: number, start: () => Promise<void>): Promise<Download[]> {
  const got: Download[] = [];
  const done = new Promise<void>((resolve) => {
    page.on("download", (d) => {
      got.push(d);
      if (got.length === count) resolve();
    });
  });
  await start();
  await done;
  return got;
}

async function expectTypedFiles(downloads: Download[], taskId: number): Promise<void> {
  const names = downloads.map((d) => d.suggestedFilename());
  expect(new Set(names).size).toBe(downloads.length);
  for (const d of downloads) {
    const name = d.suggestedFilename();
    expect(name).toMatch(new RegExp(`^reverie-${taskId}(-\\d)?\\.(jpg|png)$`));
    const head = (await fs.readFile(await downloadedFile(d))).subarray(0, 12);
    expect(name.endsWith(`.${magicType(head)}`)).toBe(true);
  }
}

/** Issue 11 items 7, 8, 9 and 10: the phone create flow, image results, and media on any host name. */
describe("consumer app: creating on a phone and getting the results out", () => {
  let server: Awaited<ReturnType<typeof startAppServer>>;
  let worker: { stop(): Promise<void> } | undefined;
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    await ensureConsumerBuild();
    [server, browser, dir] = await Promise.all([startAppServer(), launchBrowser(), mediaDir()]);
    worker = await startWorkerFor(server);
  }, 180_000);

  afterAll(async () => {
    await worker?.stop();
    await browser?.close();
    await server?.stop();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it(
    "by another host name than PUBLIC_URL, on a 390 px phone: consent hint, the free note only where it applies, progress in view, a player that fits, results as cards",
    async () => {
      // PUBLIC_URL is http://127.0.0.1:<port>; a phone on the LAN reaches the same server by another name
      const base = server.url.replace("127.0.0.1", "localhost");
      expect(server.config.publicUrl).not.toBe(base);
      const context = await newAppContext(browser, { adult: true, viewport: PHONE });
      await context.addInitScript(() => localStorage.setItem("reverie_flash_sale_seen", String(Date.now())));
      const page = await context.newPage();
      const blocked: string[] = [];
      page.on("requestfailed", (r) => blocked.push(`${r.url()} ${r.failure()?.errorText}`));
      await page.goto(`${base}/home`);
      await page.getByTestId("try-guest").click();
      await page.waitForURL(/\/creationStudio$/);

      // item 9: "Choose a photo" before the consent box explains itself instead of doing nothing
      expect(await page.getByTestId("consent-first").innerText()).toBe("Tick the consent box below first");
      let chooserOpened = false;
      page.on("filechooser", () => (chooserOpened = true));
      await page.getByTestId("photo-choose").click();
      await page.getByTestId("consent-needed").waitFor();
      expect(await page.getByTestId("consent-needed").innerText()).toBe(
        "Please confirm that you are the person shown or have their consent, and that everyone shown is 18+",
      );
      expect(chooserOpened).toBe(false);
      await screenshot(page, "consumer-phone-consent-hint");
      await page.getByTestId("consent").check();
      await page.getByTestId("consent-needed").waitFor({ state: "detached" });
      const chooser = page.waitForEvent("filechooser");
      await page.getByTestId("photo-choose").click();
      await (await chooser).setFiles(await photo(dir));
      await page.getByTestId("cropper").waitFor();
      await page.getByTestId("crop-confirm").click();

      // item 10: the signed media URL loads from the host the browser used
      await page.getByTestId("photo-preview").waitFor();
      await page.waitForFunction(() => (document.querySelector('[data-testid="photo-preview"]') as HTMLImageElement | null)?.naturalWidth! > 0, null, {
        timeout: 10_000,
      });
      expect(new URL((await page.getByTestId("photo-preview").getAttribute("src"))!, base).origin).toBe(new URL(base).origin);

      // item 7: the free creation is offered only for what it covers (a 1-credit, 5 s, 480P video)
      const softZoom = await server.db.template.findFirstOrThrow({ where: { name: "Soft Zoom" } });
      await page.getByTestId("open-templates").click();
      await page.getByTestId("template-chooser").getByTestId(`template-${softZoom.id}`).click();
      await page.getByTestId("template-chooser").waitFor({ state: "detached" });
      await page.getByTestId("res-720").click();
      await page.getByTestId("len-10").click();
      await page.locator('[data-testid="price"][data-price="4"]').waitFor();
      await page.locator('[data-testid="free-left"][data-free="0"]').waitFor();
      expect(await page.getByTestId("free-left").innerText()).toBe("You have 0 credits");
      await page.getByTestId("res-480").click();
      await page.getByTestId("len-5").click();
      await page.locator('[data-testid="price"][data-price="1"]').waitFor();
      await page.locator('[data-testid="free-left"][data-free="1"]').waitFor();
      expect(await page.getByTestId("free-left").innerText()).toBe("1 free creation left: an image or a video");

      // item 9: after Generate the progress is on screen, wherever the page was scrolled
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await page.getByTestId("generate").click();
      await page.waitForURL(/task=\d+/);
      const taskId = Number(new URL(page.url()).searchParams.get("task"));
      await page.getByTestId("task-progress").waitFor();
      await page.waitForFunction(() => {
        const r = document.querySelector('[data-testid="task-progress"]')!.getBoundingClientRect();
        return r.top >= 0 && r.top < window.innerHeight / 2;
      });
      await page.locator('[data-testid="task-progress"][data-status="succeeded"]').waitFor({ timeout: 90_000 });
      await page.waitForFunction(() => (document.querySelector('[data-testid="result-video"]') as HTMLVideoElement | null)?.readyState! >= 1);
      const player = (await page.getByTestId("result-video").boundingBox())!;
      expect(player.height).toBeLessThanOrEqual(PHONE.height);
      expect(player.x + player.width).toBeLessThanOrEqual(PHONE.width);
      await page.getByTestId("result-video").scrollIntoViewIfNeeded();
      await page.screenshot({ path: "tests/output/screenshots/consumer-phone-result.png" });

      // item 9: Results on a phone are cards with thumbnails; play and download sit on screen
      await page.goto(`${base}/function`);
      await page.locator('[data-testid="results"][data-layout="cards"]').waitFor();
      const card = page.getByTestId(`result-${taskId}`);
      await card.waitFor();
      await page.waitForFunction(
        (id) => (document.querySelector(`[data-testid="result-${id}"] [data-testid="result-thumb"] img`) as HTMLImageElement | null)?.naturalWidth! > 0,
        taskId,
      );
      for (const id of ["result-open", "result-download", "result-delete"]) {
        const box = (await card.getByTestId(id).boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await screenshot(page, "consumer-phone-results");
      await card.getByTestId("result-open").click();
      await page.getByTestId("result-viewer").locator("video").waitFor();
      const viewer = (await page.getByTestId("result-viewer").locator("video").boundingBox())!;
      expect(viewer.height).toBeLessThanOrEqual(PHONE.height);
      expect(blocked.filter((b) => /NotSameOrigin|BLOCKED/i.test(b))).toEqual([]);
      await context.close();
    },
    RENDER_TIMEOUT,
  );

  it(
    "image results: every image of a batch downloads with its real extension, the action says View, rows have thumbnails",
    async () => {
      const context = await newAppContext(browser, { adult: true, viewport: { width: 1440, height: 900 } });
      await context.addInitScript(() => localStorage.setItem("reverie_flash_sale_seen", String(Date.now())));
      const page = await context.newPage();
      await page.goto(`${server.url}/home`);
      await page.getByTestId("try-guest").click();
      await page.waitForURL(/\/creationStudio$/);
      const user = await server.db.user.findFirstOrThrow({ where: { loginType: "visitor" }, orderBy: { id: "desc" } });
      await grant(server, user.id, 10);
      await page.goto(`${server.url}/creationStudio?tab=images`);
      await page.getByTestId("mode-image_batch").click();
      await page.getByTestId("prompt").fill("a lighthouse at dusk, soft light");
      await page.getByTestId("generate-images").click();
      await page.waitForURL(/task=\d+/);
      const taskId = Number(new URL(page.url()).searchParams.get("task"));
      await page.locator('[data-testid="task-progress"][data-status="succeeded"]').waitFor({ timeout: 90_000 });
      const count = await page.getByTestId("result-image").count();
      expect(count).toBe(4);
      expect(await page.getByTestId("result-image-download").count()).toBe(count);
      expect(await page.getByTestId("download").innerText()).toBe(`Download all ${count}`);
      await pageShot(page, "consumer-image-result");
      await expectTypedFiles(await collectDownloads(page, count, () => page.getByTestId("download").click()), taskId);

      await page.goto(`${server.url}/function`);
      await page.locator('[data-testid="results"][data-layout="table"]').waitFor();
      const row = page.getByTestId(`result-${taskId}`);
      await row.waitFor();
      await page.waitForFunction(
        (id) => (document.querySelector(`[data-testid="result-${id}"] [data-testid="result-thumb"] img`) as HTMLImageElement | null)?.naturalWidth! > 0,
        taskId,
      );
      const open = row.getByTestId("result-open");
      expect(await open.getAttribute("data-kind")).toBe("image");
      expect(await open.getAttribute("aria-label")).toBe("View");
      await pageShot(page, "consumer-results-images");
      await expectTypedFiles(await collectDownloads(page, count, () => row.getByTestId("result-download").click()), taskId);
      await open.click();
      expect(await page.getByTestId("viewer-download").count()).toBe(count);
      await context.close();
    },
    RENDER_TIMEOUT,
  );
});
