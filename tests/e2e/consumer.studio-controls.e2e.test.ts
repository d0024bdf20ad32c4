import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Locator, Page } from "playwright-core";
import { launchBrowser, SCREENSHOT_DIR } from "./browser.ts";
import {
  ensureConsumerBuild,
  inEachLanguage,
  localeText,
  missingKeys,
  missingTexts,
  pageShot,
  startAppServer,
  studioAs,
  uploaderClashes,
  usedKeys,
} from "./consumer-app.ts";
import { mediaDir, photo, video } from "./consumer-media.ts";
import { visitor } from "../db-utils.ts";
import { startWorkerFor } from "../generation-utils.ts";
import { startFakeComfy, type FakeComfy } from "../fixtures/fake-comfyui.ts";

/**
 * Issue 31 item 5 and issue 30 item 8 at 360 px in every language: the studio shows the controls the engine honours
 * (decision 273) and hides the others, the mode switch is an even grid, text to video has its screen, the image
 * creator takes a reference picture, and the pickers offer the person's earlier uploads.
 *
 * Each journey runs once, with every behavioural check (what is shown, hidden, sent and rendered does not depend on
 * the language); each of its screens is then switched through every language in place (inEachLanguage), where its
 * words, its fit in the card and its screenshot are checked.
 */
const LANGUAGES = ["en", "ja", "ko", "ru"] as const;
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

/** Each of `ids` is shown, and none reaches past the creator's card. */
async function expectInsideCard(page: Page, ids: string[], language: string) {
  for (const id of ids) await page.getByTestId(id).first().waitFor();
  expect(await outsideCard(page, ids), language).toEqual([]);
}

/** Picks `file` in `picker` (consent, file, crop). */
async function pickPhoto(page: Page, picker: Locator, file: string) {
  await picker.getByTestId("consent").check();
  const chooser = page.waitForEvent("filechooser");
  await picker.getByTestId("photo-choose").click();
  await (await chooser).setFiles(file);
  await page.getByTestId("crop-confirm").click();
  await picker.getByTestId("photo-preview").waitFor();
}

/** After a Generate tap: waits for the task the studio opened to succeed, and answers it. */
async function rendered(server: Awaited<ReturnType<typeof startAppServer>>, page: Page) {
  await page.waitForURL(/task=\d+/, { timeout: 60_000 }).catch(async (err: Error) => {
    const said = await page.getByTestId("submit-error").allInnerTexts();
    throw new Error(`no task opened; the studio said: ${said.join(" | ") || "nothing"}`, { cause: err });
  });
  const id = Number(new URL(page.url()).searchParams.get("task"));
  await page.locator('[data-testid="task-progress"][data-status="succeeded"]').waitFor({ timeout: 90_000 });
  return server.db.generationTask.findUniqueOrThrow({ where: { id } });
}

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

  async function generateHere(page: Page, button: string) {
    await page.getByTestId(button).click();
    return rendered(server, page);
  }

  it("an even mode switch; no motion prompt where the engine ignores it; text to video; a reference picture from an earlier upload", {
    timeout: 200_000,
  }, async () => {
    const file = await photo(dir);
    const page = await studioAs(browser, server.url, await visitor(server), "en");

    // the mode switch: two equal cells a row, no staggered rows, inside the card, in every language's words
    await inEachLanguage(page, LANGUAGES, async (language) => {
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
      await expectInsideCard(page, ["mode-switch"], language);
      await pageShot(page, `studio-modes-${language}-360`);
    });

    // image to video on the local engine: it moves the photo by the template, so no motion prompt and no seed
    await quoted(page);
    expect(await page.getByTestId("video-prompt").count()).toBe(0);
    expect(await page.getByTestId("more-settings").count()).toBe(0);
    // a photo uploaded here is offered again later
    await pickPhoto(page, page.getByTestId("photo-picker"), file);
    const uploadId = (await server.db.upload.findFirstOrThrow({ orderBy: { id: "desc" } })).id;

    // text to video: the prompt, the aspect and the seed, which the local engine draws from
    await page.getByTestId("mode-text_to_video").click();
    await page.getByTestId("video-prompt").fill("rain on a window at night");
    await quoted(page);
    await page.getByTestId("aspect").getByText("9:16").click();
    await page.getByTestId("more-settings").click();
    await page.getByTestId("seed-input").fill("4242");
    expect(await page.getByTestId("negative-prompt").count()).toBe(0);
    await inEachLanguage(page, LANGUAGES, async (language) => {
      await expectInsideCard(page, ["video-prompt", "aspect", "seed-input"], language);
      await pageShot(page, `studio-text-video-${language}-360`);
    });
    // what is chosen reaches the render, whatever the language it was chosen in
    const t2v = await generateHere(page, "generate");
    expect(t2v.mode).toBe("text_to_video");
    expect(t2v.input).toMatchObject({ prompt: "rain on a window at night", aspect: "9:16", seed: 4242 });

    // the image creator: a reference picture, picked from the earlier uploads without uploading again
    await page.getByTestId("tab-images").click();
    await page.getByTestId("earlier-image").waitFor();
    await inEachLanguage(page, LANGUAGES, async (language) => {
      await expectInsideCard(page, ["earlier-image"], language);
      await pageShot(page, `studio-earlier-${language}-360`);
    });
    await page.getByTestId("earlier-image").getByTestId("earlier-item").first().click();
    await page.getByTestId("reference-picture").getByTestId("photo-preview").waitFor();
    await page.getByTestId("prompt").fill("a quiet harbour");
    await inEachLanguage(page, LANGUAGES, async (language) => {
      // the earlier uploads leave once one is picked
      await expectInsideCard(page, ["reference-picture"], language);
      await pageShot(page, `studio-reference-${language}-360`);
    });
    const i2i = await generateHere(page, "generate-images");
    expect(i2i.input).toMatchObject({ prompt: "a quiet harbour", sources: { image_id: uploadId } });
    await page.context().close();
  });
});

/**
 * Issue 33 items 3 and 4 beside them: on servers that run both workflows, image to video offers a second photo (a
 * transition) and a camera move, one at a time, each in the person's language and inside the card; what is chosen
 * reaches the task and renders. Item 2: video to video offers copying the video's motion onto the person's photo
 * beside the restyle; the video uploader's buttons neither overlap nor leave the card in any language.
 */
describe("consumer app: the studio's controls on a GPU engine, 360 px", () => {
  let comfy: FakeComfy;
  let server: Awaited<ReturnType<typeof startAppServer>>;
  let worker: { stop(): Promise<void> } | undefined;
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    await ensureConsumerBuild();
    comfy = await startFakeComfy({ msPerStep: 1 });
    [server, browser, dir] = await Promise.all([
      startAppServer({ GENERATION_ENGINE: "comfyui", COMFYUI_URLS: comfy.url, COMFYUI_HEALTH_SECONDS: "0.3" }),
      launchBrowser(),
      mediaDir(),
    ]);
    worker = await startWorkerFor(server);
  }, 180_000);
  /** Gives the newest guest credits, as a free generation may not cover a 14B workflow's price. */
  async function grantGuest(key: string) {
    const guest = await server.db.user.findFirstOrThrow({ orderBy: { id: "desc" } });
    await server.services.credits.grant({ userId: guest.id, amount: 50, reason: "test", idempotencyKey: `${key}:${guest.id}` });
  }
  /**
   * Generates what the studio shows with the first template (of `category`, where given) and answers the finished
   * task; the guest is given credits first.
   */
  async function generate(page: Page, category?: string) {
    await grantGuest("e2e-gpu");
    await page.getByTestId("generate").click();
    if (category) await page.getByTestId(`category-${category}`).click();
    await page.getByTestId("template-chooser").locator('button[data-testid^="template-"]').first().click();
    await page.getByTestId("template-chooser").waitFor({ state: "detached" });
    await page.getByTestId("generate").click();
    return rendered(server, page);
  }
  afterAll(async () => {
    await worker?.stop();
    await browser?.close();
    await server?.stop();
    await comfy?.close();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it("image to video shows the motion prompt and the settings its workflow takes", { timeout: 120_000 }, async () => {
    const page = await studioAs(browser, server.url, await visitor(server), "en");
    await quoted(page);
    await page.getByTestId("video-prompt").waitFor();
    await page.getByTestId("more-settings").click();
    await page.getByTestId("negative-prompt").waitFor();
    await page.getByTestId("seed-input").waitFor();
    await inEachLanguage(page, LANGUAGES, async (language) => {
      await expectInsideCard(page, ["video-prompt", "negative-prompt", "seed-input"], language);
      await pageShot(page, `studio-motion-prompt-${language}-360`);
    });
    await page.context().close();
  });

  it("image to video offers best or fast, each with its price and the honest difference, translated; fast reaches the task (issue 45)", {
    timeout: 200_000,
  }, async () => {
    const file = await photo(dir);
    const page = await studioAs(browser, server.url, await visitor(server), "en");
    await pickPhoto(page, page.getByTestId("photo-picker").first(), file);
    await page.getByTestId("tier-choice").waitFor();
    // best is Wan 2.2 A14B (3 per 5 s at 480P), fast its 4-step twin (1)
    expect(await page.getByTestId("tier-full").getAttribute("data-price")).toBe("3");
    expect(await page.getByTestId("tier-fast").getAttribute("data-price")).toBe("1");
    expect(await page.getByTestId("tier-full").getAttribute("aria-pressed")).toBe("true");
    await page.getByTestId("tier-fast").click();
    await page.locator('[data-testid="price"][data-price="1"]').waitFor();
    expect((await usedKeys(page)).filter((k) => k.startsWith("studio.tier"))).toEqual(expect.arrayContaining(["studio.tier.label", "studio.tier.fastNote"]));
    await inEachLanguage(page, LANGUAGES, async (language) => {
      await expectInsideCard(page, ["tier-choice", "tier-note"], language);
      await pageShot(page, `studio-tier-${language}-360`);
      const keys = (await usedKeys(page)).filter((k) => k.startsWith("studio.tier"));
      expect(missingKeys(language, keys), language).toEqual([]);
      expect(await missingTexts(page), language).toEqual([]);
    });
    const task = await generate(page);
    expect(task).toMatchObject({ cost: 1, input: expect.objectContaining({ tier: "fast" }) });
    expect(task.runs).toEqual([expect.objectContaining({ workflow: "wan22-i2v-14b-fast" })]);
    await page.context().close();
  });

  it("the second photo picker and the camera move select, one at a time, translated; the chosen one reaches the task", { timeout: 300_000 }, async () => {
    const file = await photo(dir);
    const page = await studioAs(browser, server.url, await visitor(server), "en");
    await pickPhoto(page, page.getByTestId("photo-picker").first(), file);
    await page.getByTestId("end-photo").waitFor();
    await page.getByTestId("camera-move").waitFor();
    await inEachLanguage(page, LANGUAGES, (language) => pageShot(page, `studio-extras-${language}-360`));

    // a camera move: the menu in the person's words, as the phone shows it once it has grown open (a full-page shot
    // scrolls it away from its field)
    await inEachLanguage(page, LANGUAGES, async (language) => {
      await page.getByTestId("camera-move").click();
      await page.waitForFunction(() => {
        const menu = document.querySelector('[data-testid="camera-rotate_anticlockwise"]')?.closest(".MuiPaper-root");
        const style = menu && getComputedStyle(menu);
        return style?.opacity === "1" && style.transform === "none";
      });
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `studio-camera-menu-${language}-360.png`) });
      await page.keyboard.press("Escape");
      await page.getByTestId("camera-rotate_anticlockwise").waitFor({ state: "detached" });
    });
    // once chosen, the second photo is not offered beside it
    await page.getByTestId("camera-move").click();
    await page.getByTestId("camera-zoom_in").click();
    await page.getByTestId("end-photo").waitFor({ state: "detached" });
    await inEachLanguage(page, LANGUAGES, async (language) => {
      await expectInsideCard(page, ["camera-move"], language);
      await pageShot(page, `studio-camera-${language}-360`);
    });

    // back to none: the second photo is offered again; once picked, the camera move leaves
    await page.getByTestId("camera-move").click();
    await page.getByTestId("camera-none").click();
    await pickPhoto(page, page.getByTestId("end-photo").getByTestId("photo-picker"), file);
    await page.getByTestId("camera-move").waitFor({ state: "detached" });
    expect((await usedKeys(page)).filter((k) => k.startsWith("studio."))).toEqual(
      expect.arrayContaining(["studio.endPhoto", "studio.camera", "studio.cameraMoves.zoom_in"]),
    );
    await inEachLanguage(page, LANGUAGES, async (language) => {
      await expectInsideCard(page, ["end-photo"], language);
      await pageShot(page, `studio-transition-${language}-360`);
      const keys = (await usedKeys(page)).filter((k) => k.startsWith("studio."));
      expect(missingKeys(language, keys), language).toEqual([]);
      expect(await missingTexts(page), language).toEqual([]);
    });

    // the transition reaches its task and renders
    const transition = await generate(page);
    expect(transition.input).toMatchObject({ endImageKey: expect.any(String) });
    expect(transition.runs).toEqual([expect.objectContaining({ workflow: "wan22-flf2v-14b" })]);

    // so does a camera move, chosen once the second photo is replaced (the template chosen above stays chosen)
    await page.getByTestId("create-another").click();
    await pickPhoto(page, page.getByTestId("photo-picker").first(), file);
    await pickPhoto(page, page.getByTestId("end-photo").getByTestId("photo-picker"), file);
    await page.getByTestId("camera-move").waitFor({ state: "detached" });
    await page.getByTestId("end-photo").getByTestId("photo-replace").click();
    await page.getByTestId("camera-move").click();
    await page.getByTestId("camera-pan_left").click();
    await page.getByTestId("generate").click();
    const moved = await rendered(server, page);
    expect(moved.input).toMatchObject({ camera: "pan_left" });
    expect(moved.runs).toEqual([expect.objectContaining({ workflow: "wan22-fun-camera-14b" })]);
    await page.context().close();
  });

  it("a template pinned to the transition asks for its second photo, Generate off until it is chosen (decision 315)", { timeout: 200_000 }, async () => {
    const pinned = await server.db.template.create({
      data: {
        name: "Two photos",
        category: "Creative",
        suitFor: "image",
        mode: "image_to_video",
        engineParams: {},
        creditPrice: 1,
        workflow: "wan22-flf2v-14b",
      },
    });
    const file = await photo(dir);
    const page = await studioAs(browser, server.url, await visitor(server), "en");
    // the template's link, followed inside the app; the studio starts with it chosen
    await page.evaluate((to) => {
      window.history.pushState(null, "", to);
      window.dispatchEvent(new PopStateEvent("popstate"));
    }, `/creationStudio?template=${pinned.id}`);
    await page.getByTestId("chosen-template").getByText("Two photos").waitFor();
    await pickPhoto(page, page.getByTestId("photo-picker").first(), file);
    await page.getByTestId("template-misfit").waitFor();
    // its controls are the transition's own: the motion prompt too, not the second photo alone
    await page.getByTestId("video-prompt").waitFor();
    expect(await page.getByTestId("generate").isDisabled()).toBe(true);
    await inEachLanguage(page, LANGUAGES, async (language) => {
      // the server's reason in the person's language
      await page.getByTestId("template-misfit").getByText(localeText(language, "msg.templateNeedsEndImage")).waitFor();
      // the second photo is asked for as required, not as an option
      await page.getByTestId("end-photo").getByText(localeText(language, "studio.endPhotoRequired"), { exact: true }).waitFor();
      await expectInsideCard(page, ["template-misfit", "end-photo"], language);
      expect(await missingTexts(page), language).toEqual([]);
      await pageShot(page, `studio-pinned-transition-${language}-360`);
    });
    await pickPhoto(page, page.getByTestId("end-photo").getByTestId("photo-picker"), file);
    await page.getByTestId("template-misfit").waitFor({ state: "detached" });
    expect(await page.getByTestId("generate").isDisabled()).toBe(false);
    await grantGuest("e2e-pinned");
    await page.getByTestId("generate").click();
    await page.waitForURL(/task=\d+/);
    const task = await server.db.generationTask.findUniqueOrThrow({ where: { id: Number(new URL(page.url()).searchParams.get("task")) } });
    expect(task).toMatchObject({ templateId: pinned.id, input: { endImageKey: expect.any(String), workflow: "wan22-flf2v-14b" } });
    await page.context().close();
  });

  it("video to video: restyle or copy motion, the photo picker once copying, translated; the copy reaches the task", { timeout: 300_000 }, async () => {
    const [file, clip] = await Promise.all([photo(dir), video(dir, 5)]);
    const page = await studioAs(browser, server.url, await visitor(server), "en");
    await page.getByTestId("mode-video_to_video").click();
    await page.getByTestId("video-uploader").waitFor();
    await inEachLanguage(page, LANGUAGES, async (language) => {
      expect(await uploaderClashes(page, "video"), language).toEqual([]);
    });
    await page.getByTestId("video-input").setInputFiles(clip);
    // issue 46 item 2: the video of people asks the photo's 18+ and consent confirmation, in its words, and sends
    // nothing before it is given
    const uploads = await server.db.upload.count();
    await page.getByTestId("video-upload").click();
    await page.getByTestId("video-consent-needed").waitFor();
    await inEachLanguage(page, LANGUAGES, async (language) => {
      expect(await page.getByTestId("video-uploader").innerText()).toContain(localeText(language, "photo.consent"));
    });
    expect(await server.db.upload.count()).toBe(uploads);
    await page.getByTestId("video-consent").check();
    await page.getByTestId("video-upload").click();
    await page.getByTestId("video-ready").waitFor();
    expect((await server.db.upload.findFirstOrThrow({ where: { kind: "video" }, orderBy: { id: "desc" } })).consentAt).not.toBeNull();
    // the uploader's player, trim and buttons stay in view after the upload: none on another, none squeezed or outside
    await inEachLanguage(page, LANGUAGES, async (language) => {
      expect(await uploaderClashes(page, "video"), language).toEqual([]);
      await page.getByTestId("video-upload").scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `studio-video-uploader-${language}-360.png`) });
    });
    await quoted(page);
    await page.getByTestId("video-choice").waitFor();
    // restyling asks for no photo and takes a strength
    expect(await page.getByTestId("motion-photo").count()).toBe(0);
    await page.getByTestId("strength").waitFor();
    await page.getByTestId("choice-copy-motion").click();
    await pickPhoto(page, page.getByTestId("motion-photo").getByTestId("photo-picker"), file);
    // copying is quoted as the heavier workflow it runs, which takes no strength
    await page.getByTestId("strength").waitFor({ state: "detached" });
    expect(Number(await page.getByTestId("price").getAttribute("data-price"))).toBeGreaterThan(1);
    expect((await usedKeys(page)).filter((k) => k.startsWith("studio."))).toEqual(
      expect.arrayContaining(["studio.videoChoice", "studio.restyle", "studio.copyMotion", "studio.copyMotionHelp"]),
    );
    await inEachLanguage(page, LANGUAGES, async (language) => {
      await expectInsideCard(page, ["video-choice", "motion-photo"], language);
      await pageShot(page, `studio-copy-motion-${language}-360`);
      const keys = (await usedKeys(page)).filter((k) => k.startsWith("studio."));
      expect(missingKeys(language, keys), language).toEqual([]);
      expect(await missingTexts(page), language).toEqual([]);
    });
    // the video looks are all Creative
    const task = await generate(page, "Creative");
    expect(task.input).toMatchObject({ imageKey: expect.any(String), videoKey: expect.any(String) });
    expect(task.runs).toEqual([expect.objectContaining({ workflow: "wan22-animate-14b" })]);
    await page.context().close();
  });
});
