import fs from "node:fs/promises";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { comfyAppForThisFile } from "./comfy-app.ts";
import { missingKeys, missingTexts, newAppContext, pageShot, usedKeys } from "./consumer-app.ts";
import { photo } from "./consumer-media.ts";
import { waitForTask } from "../generation-utils.ts";

/**
 * Issue 33 items 5 and 6 at 360 px in every language: a finished clip offers "Extend" and "1080p" in the results list,
 * each confirmed with the server's price first; a follow-up shows where it came from; nothing reaches past the screen,
 * nor past the results card (the page switcher's arrows were cut off in Japanese and Russian).
 */
const LANGUAGES = ["en", "ja", "ko", "ru"] as const;
const PHONE = { width: 360, height: 800 };

/** Nothing on the page is wider than the phone. */
const overflows = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);

/**
 * Controls of the results' page switcher cut off by the results card (it hides what reaches past it): the switcher
 * scrolls sideways inside itself, so the page stays as wide as the phone while the next-page arrow is out of sight.
 */
const pagesCutOff = (page: Page) =>
  page.evaluate(() => {
    const pages = document.querySelector<HTMLElement>('[data-testid="results-pages"]')!;
    const card = pages.closest('[data-testid="results"]')!.getBoundingClientRect();
    const cut = [...pages.querySelectorAll<HTMLElement>("button, .MuiTablePagination-displayedRows, .MuiInputBase-root")].filter((el) => {
      const r = el.getBoundingClientRect();
      return r.left < card.left - 0.5 || r.right > card.right + 0.5;
    });
    return [...cut.map((el) => el.getAttribute("aria-label") ?? el.textContent), ...(pages.scrollWidth > pages.clientWidth + 1 ? ["scrolls sideways"] : [])];
  });

describe("consumer app: extend and 1080p on a finished result, 360 px", () => {
  const app = comfyAppForThisFile();

  /** A person with bought credits and one finished clip of their own, made through the API. */
  async function personWithClip() {
    const guest = (await app.server.http.post("/api/login/visitor").expect(200)).body.data as { token: string };
    const userId = (await app.server.db.session.findFirstOrThrow({ where: { userId: { not: null } }, orderBy: { id: "desc" } })).userId!;
    await app.server.services.credits.grant({ userId, amount: 100, reason: "purchase", reference: `order:${userId}`, idempotencyKey: `order:${userId}` });
    const upload = await app.server.http
      .post("/api/ImageUpload/upload")
      .set("token", guest.token)
      .attach("file", await fs.readFile(await photo(app.dir)), "p.jpg")
      .field("consent", "1")
      .expect(200);
    const clip = await app.server.http
      .post("/api/Generation/picVideoSubmit")
      .set("token", guest.token)
      .send({ image_id: upload.body.data.id, duration: 2 })
      .expect(200);
    expect((await waitForTask(app.server, clip.body.data.id, 60_000)).status).toBe("succeeded");
    return { token: guest.token, clipId: clip.body.data.id as number };
  }

  it("the actions, their priced confirmation, and the extended clip beside its source, in every language", { timeout: 400_000 }, async () => {
    const who = await personWithClip();
    for (const language of LANGUAGES) {
      const context = await newAppContext(app.browser, { adult: true, language, viewport: PHONE });
      await context.addInitScript((t) => {
        localStorage.setItem("reverie_token", t);
        localStorage.setItem("reverie_flash_sale_seen", String(Date.now()));
      }, who.token);
      const page = await context.newPage();
      await page.goto(`${app.server.url}/function`);
      const card = page.getByTestId(`result-${who.clipId}`);
      await card.getByTestId("follow-up-extend").waitFor();
      await card.getByTestId("follow-up-upscale").waitFor();
      expect(await overflows(page)).toBe(false);
      expect(await pagesCutOff(page), language).toEqual([]);
      await pageShot(page, `results-follow-ups-${language}-360`);

      // 1080p: the price before confirming
      await card.getByTestId("follow-up-upscale").click();
      await page.getByTestId("follow-up-price").filter({ hasText: /\d/ }).waitFor();
      await page.waitForTimeout(300);
      await page.screenshot({ path: `tests/output/screenshots/follow-up-upscale-${language}-360.png` });
      await page.keyboard.press("Escape");
      await page.getByTestId("follow-up-dialog").waitFor({ state: "detached" });

      // extend: the lengths and the price of the chosen one
      await card.getByTestId("follow-up-extend").click();
      await page.getByTestId("extend-10").click();
      await page.getByTestId("follow-up-price").filter({ hasText: /6/ }).waitFor();
      await page.waitForTimeout(300);
      await page.screenshot({ path: `tests/output/screenshots/follow-up-extend-${language}-360.png` });
      if (language === "en") {
        await page.getByTestId("extend-2").click();
        await page.getByTestId("follow-up-price").filter({ hasText: /3/ }).waitFor();
        await page.getByTestId("follow-up-confirm").click();
        await page.getByTestId("follow-up-dialog").waitFor({ state: "detached" });
        const made = await app.server.db.generationTask.findFirstOrThrow({ where: { followUpOfId: who.clipId } });
        expect(made).toMatchObject({ followUp: "extend", cost: 3, durationSec: 4 });
        expect((await waitForTask(app.server, made.id, 60_000)).status).toBe("succeeded");
      } else {
        await page.keyboard.press("Escape");
        await page.getByTestId("follow-up-dialog").waitFor({ state: "detached" });
        // the follow-up made in English shows where it came from
        await page.getByTestId("follow-up-origin").first().waitFor();
        expect(await overflows(page)).toBe(false);
        await pageShot(page, `results-follow-up-origin-${language}-360`);
      }
      // the page switcher's arrows are named in the person's language too (MUI's own names are English)
      const keys = (await usedKeys(page)).filter((k) => k.startsWith("results."));
      expect(keys).toEqual(
        expect.arrayContaining(["results.followUp.action.extend", "results.followUp.title.extend", "results.followUp.confirm.upscale", "results.nextPage"]),
      );
      expect(missingKeys(language, keys), language).toEqual([]);
      expect(await missingTexts(page), language).toEqual([]);
      await context.close();
    }
  });

  // issue 46 item 9: a local draft has neither, and the draft's card says nothing it would then refuse
  it("a local draft is offered neither extend nor 1080p; a result of the AI engine beside it is", { timeout: 120_000 }, async () => {
    const who = await personWithClip();
    const clip = await app.server.db.generationTask.findUniqueOrThrow({ where: { id: who.clipId } });
    // the same clip as the local engine's draft
    const draft = await app.server.db.generationTask.create({
      data: {
        userId: clip.userId,
        mode: clip.mode,
        engine: "local",
        cost: clip.cost,
        input: clip.input ?? {},
        outputs: clip.outputs ?? {},
        status: "succeeded",
        outputKey: clip.outputKey,
        posterKey: clip.posterKey,
        durationSec: clip.durationSec,
        resolution: clip.resolution,
        expiresAt: clip.expiresAt,
      },
    });
    const context = await newAppContext(app.browser, { adult: true, language: "en", viewport: PHONE });
    await context.addInitScript((t) => {
      localStorage.setItem("reverie_token", t);
      localStorage.setItem("reverie_flash_sale_seen", String(Date.now()));
    }, who.token);
    const page = await context.newPage();
    await page.goto(`${app.server.url}/function`);
    await page.getByTestId(`result-${who.clipId}`).getByTestId("follow-up-extend").waitFor();
    const card = page.getByTestId(`result-${draft.id}`);
    await card.getByTestId("result-download").waitFor();
    expect(await card.getByTestId(/^follow-up-/).count()).toBe(0);
    await pageShot(page, "results-local-draft-no-follow-ups-en-360");
    await context.close();
  });
});
