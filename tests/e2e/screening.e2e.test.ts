import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../server-utils.ts";
import { staffMember, type StaffLogin } from "../staff-utils.ts";
import { FACES_DIR } from "../training-utils.ts";
import { launchBrowser, screenshot, SCREENSHOT_DIR } from "./browser.ts";
import { ensureConsoleBuilt, signInToConsole } from "./console-build.ts";
import { ensureConsumerBuild, newAppContext } from "./consumer-app.ts";

/**
 * Upload screening in the browser (issue 19): the consumer is told a held photo is being reviewed (every language,
 * 360 px), and a moderator decides it in the console's screening queue.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;
let mod: StaffLogin;
let dir: string;

beforeAll(async () => {
  await Promise.all([ensureConsumerBuild(), ensureConsoleBuilt()]);
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  mod = await staffMember(server, ["moderator"]);
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "screening-e2e-"));
  await fs.copyFile(path.join(FACES_DIR, "stock-emotions-a-1.jpg"), path.join(dir, "young-looking.jpg"));
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

const HELD_TEXT = {
  en: "This photo is being reviewed by our team before it can be used. Nothing has been charged.",
  ja: "この写真は使用前にチームが確認しています。料金は発生していません。",
  ko: "이 사진은 사용 전에 저희 팀이 검토하고 있습니다. 요금은 청구되지 않았습니다.",
  ru: "Это фото проверяет наша команда, прежде чем его можно будет использовать. Ничего не списано.",
} as const;

describe("consumer: a held upload", () => {
  it("tells the person the photo is being reviewed, in every language, on a 360 px phone; the photo is not chosen", { timeout: 240_000 }, async () => {
    for (const language of ["en", "ja", "ko", "ru"] as const) {
      const context = await newAppContext(browser, { adult: true, language, viewport: { width: 360, height: 760 } });
      const page = await context.newPage();
      await page.goto(`${server.url}/home`);
      await page.getByTestId("try-guest").click();
      await page.waitForURL(/\/creationStudio$/);
      await page.getByTestId("consent").check();
      await page.getByTestId("photo-input").setInputFiles(path.join(dir, "young-looking.jpg"));
      await page.getByTestId("cropper").waitFor();
      await page.getByTestId("crop-confirm").click();
      const notice = page.getByTestId("upload-held");
      await notice.waitFor({ timeout: 60_000 });
      expect(await notice.innerText()).toContain(HELD_TEXT[language]);
      expect(await page.getByTestId("photo-preview").count()).toBe(0);
      const box = await notice.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(360);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await screenshot(page, `consumer-upload-held-${language}`);
      // the full page shows the fixed bottom bar where the viewport was: the phone's own view of the notice too
      await notice.evaluate((el) => el.scrollIntoView({ block: "center" }));
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `consumer-upload-held-${language}-phone.png`) });
      await context.close();
    }
    expect(await server.db.uploadScreening.count({ where: { status: "held" } })).toBe(4);
  });
});

const signIn = () => signInToConsole(browser, server.url, mod);

describe("console: the screening queue", () => {
  it("shows held uploads with their estimate and preview; a moderator approves one and rejects one with a reason", { timeout: 180_000 }, async () => {
    const page = await signIn();
    await page.goto(`${server.url}/console/upload-screenings`);
    await page.waitForSelector("[data-testid=screening-age]");
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll("[data-testid=screening-preview]")].length === 4 &&
        [...document.querySelectorAll("[data-testid=screening-preview]")].every(
          (i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0,
        ),
    );
    const ages = await page.locator("[data-testid=screening-age]").allInnerTexts();
    expect(ages.every((a) => Number(a) < 25)).toBe(true);
    await screenshot(page, "console-screening-queue");

    const [first, second] = await server.db.uploadScreening.findMany({ where: { status: "held" }, orderBy: { id: "asc" }, take: 2 });
    await page.goto(`${server.url}/console/upload-screenings/${first.id}/show`);
    await page.getByTestId("screening-preview").waitFor();
    await screenshot(page, "console-screening-show");
    await page.click('[data-action="upload-screenings-review"] >> nth=0');
    await page.click('[data-submit="upload-screenings-review"]');
    await page.waitForSelector('.ra-field-status:has-text("approved")');

    await page.goto(`${server.url}/console/upload-screenings/${second.id}/show`);
    await page.click('[data-action="upload-screenings-review"] >> nth=1');
    await page.fill('textarea[name="reason"]', "Looks under 18");
    await page.click('[data-submit="upload-screenings-review"]');
    await page.waitForSelector('.ra-field-status:has-text("rejected")');
    await screenshot(page, "console-screening-rejected");

    const audit = await server.db.auditLog.findMany({ where: { action: { startsWith: "screening_" } }, orderBy: { id: "asc" } });
    expect(audit.map((a) => [a.action, a.resourceId, a.reason])).toEqual([
      ["screening_approve", String(first.uploadId), null],
      ["screening_reject", String(second.uploadId), "Looks under 18"],
    ]);

    await page.goto(`${server.url}/console/blocked-hashes/create`);
    await page.fill('textarea[name="hashes"]', "# partner list\n00000000000000ff\n");
    await screenshot(page, "console-blocklist-import");
    await page.click('button[type="submit"]');
    await page.waitForSelector('.RaDatagrid-table td:has-text("00000000000000ff")');
    await page.waitForSelector("text=1 hashes added, 0 already listed");
    await screenshot(page, "console-blocklist-list");
  });
});
