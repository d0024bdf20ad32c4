import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser } from "./browser.ts";
import { ensureConsumerBuild, missingKeys, newAppContext, pageShot, startAppServer, storedToken, usedKeys } from "./consumer-app.ts";
import { startFakeComfy, type FakeComfy } from "../fixtures/fake-comfyui.ts";
import { GENERATION_TEST_ENV, startWorkerFor } from "../generation-utils.ts";
import { MSG } from "../../server/src/http/messages.ts";

/** The character editor's "Generate avatar": painted on a (fake) ComfyUI server, kept as the avatar, in every language on a phone. */
let server: Awaited<ReturnType<typeof startAppServer>>;
let comfy: FakeComfy;
let worker: { stop(): Promise<void> };
let browser: Browser;
const PHONE = { width: 360, height: 780 };

beforeAll(async () => {
  await ensureConsumerBuild();
  comfy = await startFakeComfy({ msPerStep: 20 });
  server = await startAppServer({
    ...GENERATION_TEST_ENV,
    GENERATION_ENGINE: "local",
    COMFYUI_URLS: comfy.url,
    COMFYUI_HEALTH_SECONDS: "0.3",
    IMAGE_CREDIT_PRICE: "2",
  });
  worker = await startWorkerFor(server);
  browser = await launchBrowser();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await server?.stop();
  if (!comfyClosed) await comfy?.close();
});
let comfyClosed = false;

async function guestWithCredits(page: Page, credits: number) {
  await page.getByTestId("studio-try-guest").click();
  await expect.poll(() => storedToken(page)).toBeTruthy();
  const user = await server.db.user.findFirstOrThrow({ where: { loginType: "visitor" }, orderBy: { id: "desc" } });
  await server.services.credits.grant({ userId: user.id, amount: credits, reason: "test", idempotencyKey: `e2e-avatar:${user.id}` });
  return user;
}

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe("consumer app: generated character avatars", () => {
  it("paints an avatar from the card and keeps it, in every language on a 360 px phone", async () => {
    for (const language of ["en", "ja", "ko", "ru"] as const) {
      const context = await newAppContext(browser, { adult: true, viewport: PHONE, language });
      const page = await context.newPage();
      await page.goto(`${server.url}/characterCreatEdit`);
      const user = await guestWithCredits(page, 10);
      await page.getByTestId("character-edit").waitFor();
      expect(await page.getByTestId("avatar-generate").isDisabled()).toBe(true);
      await page.getByTestId("character-name").fill("Mira Vale");
      await page.getByTestId("character-description").fill("A lighthouse keeper with silver hair and a green wool coat");
      await page.getByTestId("avatar-generate").click();
      await page.getByTestId("avatar-result").waitFor({ timeout: 30_000 });
      await pageShot(page, `chat-avatar-painted-${language}`);
      expect(
        await page.evaluate(() =>
          [...document.querySelectorAll("*")]
            .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
            .map((e) => `${e.tagName}.${e.className}`)
            .slice(0, 8),
        ),
      ).toEqual([]);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await page.getByTestId("avatar-keep").click();
      await page.getByTestId("avatar-result").waitFor({ state: "detached" });
      // the kept picture is now the avatar the card is saved with
      await expect.poll(() => page.locator('[data-testid="character-edit"] .MuiAvatar-root img').count()).toBe(1);
      await pageShot(page, `chat-avatar-kept-${language}`);
      await page.getByTestId("character-save").click();
      await page.waitForURL(/\/chat\?c=\d+$/);
      const saved = await server.db.character.findFirstOrThrow({ where: { userId: user.id } });
      expect(saved.avatarKey).toMatch(/uploads/);
      // one GPU picture: 2 credits
      expect((await server.db.user.findUniqueOrThrow({ where: { id: user.id } })).points).toBe(8);
      expect(missingKeys(language, await usedKeys(page))).toEqual([]);
      await context.close();
    }
  }, 240_000);

  it("says plainly that no AI image model runs when the GPU server is gone", async () => {
    await comfy.close();
    comfyClosed = true;
    const context = await newAppContext(browser, { adult: true, viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${server.url}/characterCreatEdit`);
    await guestWithCredits(page, 10);
    await page.getByTestId("character-name").fill("Mira Vale");
    await page.getByTestId("character-description").fill("A lighthouse keeper");
    // the engine's health round notices the server is gone
    await expect.poll(async () => (await server.services.engines.require("comfyui").status()).servers?.[0]?.health, { timeout: 10_000 }).toBe("unreachable");
    await page.getByTestId("avatar-generate").click();
    await expect.poll(() => page.getByTestId("avatar-error").textContent(), { timeout: 10_000 }).toBe(MSG.avatarNeedsImageModel);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await pageShot(page, "chat-avatar-no-model");
    await context.close();
  }, 60_000);
});
