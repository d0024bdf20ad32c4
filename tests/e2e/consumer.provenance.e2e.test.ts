import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { photo } from "../fixtures/media.ts";
import { launchBrowser } from "./browser.ts";
import { ensureConsumerBuild, missingKeys, missingTexts, newAppContext, pageShot, startAppServer, usedKeys } from "./consumer-app.ts";

/** Issue 33 item 8: "Was this made with Reverie?" at 360 px in four languages, answering for a signed and an unrelated file. */
let server: Awaited<ReturnType<typeof startAppServer>>;
let browser: Browser;
let dir: string;
let signed: string;
let unrelated: string;

beforeAll(async () => {
  await ensureConsumerBuild();
  server = await startAppServer();
  browser = await launchBrowser();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "provenance-e2e-"));
  // an output as the worker leaves it: signed and fingerprinted by the provenance step
  signed = path.join(dir, "made-here.png");
  const poster = path.join(dir, "poster.jpg");
  // not the fixture photo's centred disc on blue: pictures of one layout share a perceptual hash
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="360"><rect width="100%" height="100%" fill="#284"/>
    <rect x="20" y="30" width="180" height="120" fill="#f6c"/><path d="M480 360 L260 360 L480 140 Z" fill="#fe8"/></svg>`;
  await sharp(Buffer.from(svg)).png().toFile(signed);
  await sharp(signed).jpeg().toFile(poster);
  const png = { path: signed, mime: "image/png" };
  await server.services.provenance.markOutputs(
    { main: png, extra: [], poster: { path: poster, mime: "image/jpeg" }, width: 480, height: 360 },
    { id: 1, engine: "comfyui" },
  );
  unrelated = path.join(dir, "holiday.jpg");
  await fs.writeFile(unrelated, await photo(640, 480));
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await fs.rm(dir, { recursive: true, force: true });
});

const PHONE = { width: 360, height: 780 };

async function noHorizontalScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

async function checkFile(page: Page, file: string) {
  await page.getByTestId("provenance-file").setInputFiles(file);
  await page.getByTestId("provenance-check").click();
  return page.getByTestId("provenance-answer");
}

describe("the provenance page", () => {
  it("fits 360 px in every language and answers yes for a signed output, no for an unrelated photo", { timeout: 180_000 }, async () => {
    for (const language of ["ja", "ko", "ru", "en"] as const) {
      const context = await newAppContext(browser, { adult: true, language, viewport: PHONE });
      await context.addInitScript(() => localStorage.setItem("reverie_flash_sale_seen", String(Date.now())));
      const page = await context.newPage();
      await page.goto(`${server.url}/provenance`);
      await page.getByTestId("provenance-page").waitFor();
      const yes = await checkFile(page, signed);
      expect(await yes.getAttribute("data-evidence")).toBe("credentials");
      await noHorizontalScroll(page);
      await pageShot(page, `provenance-yes-360-${language}`);
      expect(
        missingKeys(
          language,
          (await usedKeys(page)).filter((k) => k.startsWith("provenance.")),
        ),
      ).toEqual([]);
      expect(await missingTexts(page)).toEqual([]);
      if (language === "en") {
        expect(await yes.innerText()).toContain("Yes, this was made with AI on Reverie");
        expect(await yes.innerText()).toContain("By Reverie (comfyui)");
        const no = await checkFile(page, unrelated);
        expect(await no.getAttribute("data-evidence")).toBe("none");
        expect(await no.innerText()).toContain("We found no sign that this was made on Reverie");
        await pageShot(page, "provenance-no-360-en");
        // a link that is not ours is refused with the server's message
        await page.getByTestId("provenance-link").fill("https://example.com/cat.png");
        await page.getByTestId("provenance-check").click();
        expect(await page.getByTestId("provenance-problem").innerText()).toBe("This link does not lead to a picture or video of this site");
        // the footer leads here
        await page.goto(`${server.url}/home`);
        await page.getByTestId("footer-provenance").click();
        await page.waitForURL(/\/provenance$/);
      }
      await context.close();
    }
  });
});
