import crypto from "node:crypto";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loraSafetensors } from "../fixtures/lora-files.ts";
import { photo } from "../fixtures/media.ts";
import { registeredUser, uploadImage } from "../training-utils.ts";
import { SCREENSHOT_DIR, screenshot } from "./browser.ts";
import { comfyAppForThisFile } from "./comfy-app.ts";
import { localeText, missingTexts, signedInPhone } from "./consumer-app.ts";

const LANGUAGES = ["en", "ja", "ko", "ru"] as const;

/**
 * Decision 395 in the studio at 360 px, on a GPU engine: a character model trained on FLUX.1-dev (as Reverie's trainers
 * train) has no video workflow of its family, so the video studio says so under the picker, in the person's language,
 * and keeps Generate off; the image studio runs it on FLUX and offers it.
 */
describe("a Flux character model in the studio, 360 px (decision 395)", () => {
  const app = comfyAppForThisFile();

  it.each(LANGUAGES)(
    "%s: videos with it are told unavailable before the tap; pictures are offered",
    async (language) => {
      const who = await registeredUser(app.server, 20);
      const cover = await uploadImage(app.server, who.token, await photo(600, 800));
      const weights = loraSafetensors(4, 64 + who.userId);
      const artifactKey = `u/${who.userId}/models/ayla.safetensors`;
      await app.server.services.storage.put(artifactKey, weights, "application/octet-stream");
      await app.server.db.characterModel.create({
        data: {
          userId: who.userId,
          name: "Ayla",
          homeLink: `ayla${who.userId}`,
          coverUploadId: cover,
          status: "success",
          cost: 5,
          triggerWord: "ayl",
          artifactKey,
          baseModel: "black-forest-labs/FLUX.1-dev",
          weightsSha256: crypto.createHash("sha256").update(weights).digest("hex"),
        },
      });
      const { context, page } = await signedInPhone(app.browser, who, language);
      try {
        await page.goto(`${app.server.url}/creationStudio`);
        await page.getByTestId("model-picker").getByTestId("model-choice").click();
        const refused = page.getByTestId("model-refused");
        expect(await refused.innerText()).toBe(localeText(language, "msg.characterNotForThis"));
        expect(await page.getByTestId("generate").isDisabled()).toBe(true);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
        expect(await missingTexts(page)).toEqual([]);
        // the page, and the phone's screen with the note in its middle (a full-page shot leaves the sticky bottom bar over it)
        await screenshot(page, `character-family-video-${language}-360`);
        await refused.evaluate((el) => el.scrollIntoView({ block: "center" }));
        await page.screenshot({ path: path.join(SCREENSHOT_DIR, `character-family-video-${language}-360-note.png`) });

        await page.goto(`${app.server.url}/creationStudio?tab=images`);
        await page.getByTestId("model-picker").getByTestId("model-choice").click();
        await page.getByTestId("price").waitFor();
        expect(await refused.count()).toBe(0);
        expect(await page.getByTestId("generate-images").isDisabled()).toBe(false);
      } finally {
        await context.close();
      }
    },
    90_000,
  );
});
