import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser } from "./browser.ts";
import { ensureConsumerBuild, missingKeys, newAppContext, pageShot, startAppServer, storedToken, usedKeys } from "./consumer-app.ts";
import { startWorkerFor } from "../generation-utils.ts";
import { photo } from "../fixtures/media.ts";
import { startFakeOpenAi, type FakeOpenAi } from "../fixtures/fake-openai.ts";
import { chatBackendsEnv } from "../chat-utils.ts";

/** Issue 50: a character sends a picture of itself in the conversation, on a 360 px phone, in every language. */
let server: Awaited<ReturnType<typeof startAppServer>>;
let worker: { stop(): Promise<void> };
let browser: Browser;
/** A chat model that takes tools: asked for a selfie, it offers one (tests/fixtures/fake-openai.ts's default). */
let model: FakeOpenAi;
const PHONE = { width: 360, height: 780 };

beforeAll(async () => {
  await ensureConsumerBuild();
  model = await startFakeOpenAi({ apiKey: "sk-test" });
  server = await startAppServer({
    CHAT_FREE_MESSAGES: "0",
    QUEUE_POLL_SECONDS: "0.5",
    FREE_GENERATIONS: "0",
    CHAT_BACKENDS: chatBackendsEnv([model], { tools: true }),
  });
  worker = await startWorkerFor(server);
  browser = await launchBrowser();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await server?.stop();
  await model?.close();
});

/** A guest with credits, their character with an avatar and a conversation with it, opened on the chat page. */
async function openConversation(page: Page, credits: number): Promise<{ userId: number }> {
  await page.goto(`${server.url}/creationStudio`);
  await page.getByTestId("studio-try-guest").click();
  await expect.poll(() => storedToken(page)).toBeTruthy();
  const token = (await storedToken(page))!;
  const user = await server.db.user.findFirstOrThrow({ where: { loginType: "visitor" }, orderBy: { id: "desc" } });
  await server.services.credits.grant({ userId: user.id, amount: credits, reason: "test", idempotencyKey: `e2e-chat-media:${user.id}` });
  const up = await server.http
    .post("/api/ImageUpload/upload")
    .set("token", token)
    .attach("file", await photo(320, 320), "a.jpg")
    .field("consent", "1")
    .expect(200);
  const c = (
    await server.http
      .post("/api/RoleChat/creatCharacter")
      .set("token", token)
      .send({ name: "Mira", description: "A 29-year-old lighthouse keeper", greeting: "Welcome in.", age: 29, avatar_image_id: up.body.data.id })
      .expect(200)
  ).body.data;
  const conv = (await server.http.post("/api/RoleChat/creatConversation").set("token", token).send({ character_id: c.id }).expect(200)).body.data;
  await page.goto(`${server.url}/chat?c=${conv.id}`);
  await page.getByTestId("chat-input").waitFor();
  return { userId: user.id };
}

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe("consumer app: a character's picture in the conversation", () => {
  it("price before the tap, the picture inline with its draft label, then a video from it in the studio", async () => {
    const context = await newAppContext(browser, { adult: true, viewport: PHONE });
    const page = await context.newPage();
    const { userId } = await openConversation(page, 20);
    await page.getByTestId("chat-media-button").click();
    await page.getByTestId("chat-media-menu").waitFor();
    // the price is on the button before the tap, and the local draft is said up front
    await expect.poll(() => page.getByTestId("chat-media-image").textContent()).toMatch(/1 credit/);
    await page.getByTestId("chat-media-draft-note").waitFor();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await pageShot(page, "chat-media-menu");
    await page.getByTestId("chat-media-prompt").fill("waving from the lamp room");
    await page.getByTestId("chat-media-image").click();
    await page.locator('[data-testid="chat-media"]').first().waitFor();
    await expect.poll(() => page.getByTestId("chat-media").first().getAttribute("data-state"), { timeout: 20_000 }).toBe("succeeded");
    await page.getByTestId("chat-media-file").first().waitFor();
    await expect
      .poll(() =>
        page
          .getByTestId("chat-media-file")
          .first()
          .evaluate((img) => (img as HTMLImageElement).naturalWidth),
      )
      .toBeGreaterThan(0);
    await page.getByTestId("chat-media-draft").waitFor();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await pageShot(page, "chat-media-picture");
    expect((await server.db.user.findUniqueOrThrow({ where: { id: userId } })).points).toBe(19);

    await page.getByTestId("chat-media-video").click();
    await page.waitForURL(/\/creationStudio\?photo=\d+/);
    // the studio's image to video starts with the picture as its photo
    await page.getByTestId("photo-preview").first().waitFor({ timeout: 15_000 });
    await pageShot(page, "chat-media-to-studio");
    await context.close();
  }, 90_000);

  it("the character offers a selfie in its reply: the price on the offer, nothing charged until the tap, then the picture", async () => {
    const context = await newAppContext(browser, { adult: true, viewport: PHONE });
    const page = await context.newPage();
    const { userId } = await openConversation(page, 20);
    await page.getByTestId("chat-input").fill("Send me a selfie from the harbour?");
    await page.getByTestId("chat-send").click();
    await page.getByTestId("chat-media-offer").waitFor({ timeout: 20_000 });
    await expect.poll(() => page.getByTestId("chat-media-take").textContent()).toMatch(/1 credit/);
    expect(await page.getByTestId("chat-media-offer").textContent()).toMatch(/Mira offers you a picture.*smiling on the harbour wall/);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await pageShot(page, "chat-media-offer");
    // the reply's price only: the offer is not charged
    const afterReply = (await server.db.user.findUniqueOrThrow({ where: { id: userId } })).points;
    expect(await server.db.generationTask.count({ where: { userId } })).toBe(0);
    await page.getByTestId("chat-media-take").click();
    await expect.poll(() => page.getByTestId("chat-media").first().getAttribute("data-state"), { timeout: 20_000 }).toBe("succeeded");
    await page.getByTestId("chat-media-file").first().waitFor();
    expect(await page.getByTestId("chat-media-offer").count()).toBe(0);
    expect((await server.db.user.findUniqueOrThrow({ where: { id: userId } })).points).toBe(afterReply - 1);
    await pageShot(page, "chat-media-offer-taken");
    await context.close();
  }, 90_000);

  it("the picture menu and the offer fit a 360 px phone in Japanese, Korean and Russian", async () => {
    for (const language of ["ja", "ko", "ru"] as const) {
      const context = await newAppContext(browser, { adult: true, viewport: PHONE, language });
      const page = await context.newPage();
      await openConversation(page, 5);
      await page.getByTestId("chat-media-button").click();
      await expect.poll(() => page.getByTestId("chat-media-image").isEnabled()).toBe(true);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await pageShot(page, `chat-media-menu-${language}`);
      await page.keyboard.press("Escape");
      await page.getByTestId("chat-input").fill("A photo, please");
      await page.getByTestId("chat-send").click();
      await page.getByTestId("chat-media-offer").waitFor({ timeout: 20_000 });
      await expect.poll(() => page.getByTestId("chat-media-take").isEnabled()).toBe(true);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await pageShot(page, `chat-media-offer-${language}`);
      expect(missingKeys(language, await usedKeys(page))).toEqual([]);
      await context.close();
    }
  }, 120_000);
});
