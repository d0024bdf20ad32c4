import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, SCREENSHOT_DIR } from "./browser.ts";
import { ensureConsumerBuild, guestStudio, missingKeys, missingTexts, pageShot, startAppServer, uploaderClashes, usedKeys } from "./consumer-app.ts";
import { audio, mediaDir } from "./consumer-media.ts";
import { startFakeComfy, type FakeComfy } from "../fixtures/fake-comfyui.ts";

/**
 * Issue 33 item 1 at 360 px in every language: the audio overlay screen says what it will make before anything is
 * uploaded — on a GPU engine a photo that speaks or sings to the audio (lip-synced), on the local engine the audio
 * under the photo's motion, as a local draft (decision 305). Its audio uploader fits the phone in every language.
 */
const LANGUAGES = ["en", "ja", "ko", "ru"] as const;

/** The audio overlay screen once its note says `kind`. */
async function audioOverlay(browser: Browser, url: string, language: (typeof LANGUAGES)[number], kind: string): Promise<Page> {
  const page = await guestStudio(browser, url, language);
  await page.getByTestId("mode-audio_overlay").click();
  await page.locator(`[data-testid="audio-note"][data-kind="${kind}"]`).waitFor();
  return page;
}

/**
 * The note is inside the card at 360 px, in the person's language, every key it used present; then its pictures: the
 * phone's screen with the note in its middle (a full-page shot leaves the sticky bottom bar over it), and the page.
 * Read through locators, which wait for the note: the screen may mount it again as its translations arrive.
 */
async function checkNote(page: Page, language: string, key: string, shot: string) {
  const overflow = await page.getByTestId("audio-note").evaluate((note) => {
    const card = note.closest(".MuiPaper-root:not(.MuiAlert-root)")!;
    return note.getBoundingClientRect().right - card.getBoundingClientRect().right;
  });
  expect(overflow).toBeLessThanOrEqual(0.5);
  const keys = (await usedKeys(page)).filter((k) => k.startsWith("studio."));
  expect(keys).toContain(key);
  expect(missingKeys(language, keys), language).toEqual([]);
  expect(await missingTexts(page), language).toEqual([]);
  await page.getByTestId("audio-note").evaluate((note) => note.scrollIntoView({ block: "center" }));
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${shot}-note.png`) });
  await pageShot(page, shot);
}

describe("consumer app: what audio overlay makes, told per engine, 360 px", () => {
  let comfy: FakeComfy;
  let local: Awaited<ReturnType<typeof startAppServer>>;
  let gpu: Awaited<ReturnType<typeof startAppServer>>;
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    await ensureConsumerBuild();
    comfy = await startFakeComfy({ msPerStep: 1 });
    [local, gpu, browser, dir] = await Promise.all([
      startAppServer(),
      startAppServer({ GENERATION_ENGINE: "comfyui", COMFYUI_URLS: comfy.url, COMFYUI_HEALTH_SECONDS: "0.3" }),
      launchBrowser(),
      mediaDir(),
    ]);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await Promise.all([local?.stop(), gpu?.stop()]);
    await comfy?.close();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it("on the local engine the audio plays under the photo's motion, and the screen says it is a local draft", { timeout: 200_000 }, async () => {
    for (const language of LANGUAGES) {
      const page = await audioOverlay(browser, local.url, language, "local-draft");
      await checkNote(page, language, "studio.audioLocalDraft", `studio-audio-local-draft-${language}-360`);
      await page.context().close();
    }
  });

  it("on a GPU engine the photo speaks or sings to the audio: said before and after the audio is chosen", { timeout: 300_000 }, async () => {
    const sound = await audio(dir, 8);
    for (const language of LANGUAGES) {
      const page = await audioOverlay(browser, gpu.url, language, "lip-sync");
      await checkNote(page, language, "studio.audioDriven", `studio-audio-lip-sync-${language}-360`);
      // the audio chosen: its player, waveform, trim and buttons, none on another, none squeezed or outside the card
      await page.getByTestId("audio-input").setInputFiles(sound);
      await page.getByTestId("waveform").waitFor();
      expect(await uploaderClashes(page, "audio"), language).toEqual([]);
      await page.getByTestId("audio-upload").scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `studio-audio-uploader-${language}-360.png`) });
      if (language === "en") {
        // the quote for its own length, with its price, still says lip-synced
        await page.getByTestId("audio-consent").check();
        await page.getByTestId("audio-upload").click();
        await page.getByTestId("audio-ready").waitFor();
        await page.locator('[data-testid="price"]:not([data-price=""])').waitFor();
        await page.locator('[data-testid="audio-note"][data-kind="lip-sync"]').waitFor();
        await page.getByTestId("audio-note").evaluate((note) => note.scrollIntoView({ block: "center" }));
        await page.screenshot({ path: path.join(SCREENSHOT_DIR, "studio-audio-lip-sync-chosen-en-360.png") });
      }
      await page.context().close();
    }
  });
});
