import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser } from "./browser.ts";
import { ensureConsumerBuild, missingKeys, newAppContext, pageShot, startAppServer, storedToken, usedKeys } from "./consumer-app.ts";
import { chatBackendsEnv } from "../chat-utils.ts";
import { defaultBehaviour, startFakeOpenAi, type FakeOpenAi } from "../fixtures/fake-openai.ts";

let server: Awaited<ReturnType<typeof startAppServer>>;
let fake: FakeOpenAi;
let browser: Browser;
const PHONE = { width: 360, height: 780 };

beforeAll(async () => {
  await ensureConsumerBuild();
  fake = await startFakeOpenAi();
  server = await startAppServer({ CHAT_BACKENDS: chatBackendsEnv([fake]), CHAT_FREE_MESSAGES: "0" });
  browser = await launchBrowser();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await fake?.close();
});

async function guestWithCredits(page: Page, credits: number) {
  await page.getByTestId("studio-try-guest").click();
  await expect.poll(() => storedToken(page)).toBeTruthy();
  const user = await server.db.user.findFirstOrThrow({ where: { loginType: "visitor" }, orderBy: { id: "desc" } });
  await server.services.credits.grant({ userId: user.id, amount: credits, reason: "test", idempotencyKey: `e2e-chat:${user.id}` });
  return user;
}

const replies = (page: Page) => page.getByTestId("msg-reply");

describe("consumer app: chat with AI characters", () => {
  it("creates a character with the draft button, chats, stops and regenerates on a phone", async () => {
    // the first token a moment after the request, so the typing dots stay long enough to be seen however fast we are
    fake.setRespond((b) => ({ ...(defaultBehaviour(b) as { kind: "stream"; text: string }), tokenDelayMs: 40, firstTokenDelayMs: 1500 }));
    const context = await newAppContext(browser, { adult: true, viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${server.url}/characterCreatEdit`);
    const user = await guestWithCredits(page, 20);
    await page.getByTestId("character-edit").waitFor();

    await page.getByTestId("character-idea").fill("a barista who reads tarot");
    await page.getByTestId("character-draft").click();
    await expect.poll(() => page.getByTestId("character-name").inputValue(), { timeout: 15_000 }).toBe("Mira Vale");
    expect(await page.getByTestId("character-description").inputValue()).toContain("barista who reads tarot");
    await pageShot(page, "chat-character-drafted");

    await page.getByTestId("character-save").click();
    await page.waitForURL(/\/chat\?c=\d+$/);
    await page.getByTestId("conversation").waitFor();
    await expect.poll(() => replies(page).first().textContent(), { timeout: 10_000 }).toContain("Oh, hello there. Coffee?");
    // SPEC.md §2: no footer on /chat
    expect(await page.locator("footer").count()).toBe(0);

    await page.getByTestId("chat-input").fill("What do the cards say about today?");
    await page.getByTestId("chat-send").click();
    await page.getByTestId("typing").first().waitFor();
    await pageShot(page, "chat-typing");
    await page.getByTestId("chat-stop").waitFor({ state: "detached", timeout: 15_000 });
    const answered = await replies(page).last().textContent();
    expect(answered).toContain("What do the cards say about today?");
    expect(await replies(page).last().getAttribute("data-status")).toBe("complete");
    await pageShot(page, "chat-replied");

    // a long, slow reply, stopped part-way: what was written stays
    fake.setRespond(() => ({ kind: "stream", text: Array.from({ length: 80 }, (_, i) => `word${i}`).join(" "), tokenDelayMs: 80 }));
    await page.getByTestId("chat-input").fill("Tell me a long story");
    await page.getByTestId("chat-send").click();
    await expect.poll(async () => ((await replies(page).last().textContent()) ?? "").split(" ").length, { timeout: 10_000 }).toBeGreaterThan(4);
    await page.getByTestId("chat-stop").click();
    await expect.poll(() => replies(page).last().getAttribute("data-status"), { timeout: 10_000 }).toBe("stopped");
    const stopped = (await replies(page).last().textContent()) ?? "";
    expect(stopped).not.toContain("word79");
    await pageShot(page, "chat-stopped");

    fake.setRespond((b) => ({ ...(defaultBehaviour(b) as { kind: "stream"; text: string }), tokenDelayMs: 20 }));
    await page.getByTestId("chat-regenerate").click();
    await expect.poll(() => replies(page).last().getAttribute("data-status"), { timeout: 10_000 }).toBe("complete");
    expect(await replies(page).last().textContent()).toContain("Tell me a long story");
    await pageShot(page, "chat-regenerated");

    const stored = await server.db.chatMessage.findMany({
      where: { conversation: { userId: user.id }, role: "assistant", replyToId: { not: null } },
      orderBy: { id: "asc" },
    });
    expect(stored.map((m) => m.status)).toEqual(["complete", "complete"]);
    // three replies were charged (the stopped one was replaced by its regeneration but kept its charge)
    expect((await server.db.user.findUniqueOrThrow({ where: { id: user.id } })).points).toBe(17);
    expect(missingKeys("en", await usedKeys(page))).toEqual([]);

    // the conversation list with its last line
    await page.getByTestId("account-menu").click();
    await page.getByTestId("menu-chat").click();
    await page.waitForURL(/\/chat$/);
    await page.getByTestId("conversation-item").first().waitFor();
    expect(await page.getByTestId("conversation-item").first().textContent()).toContain("Mira Vale");
    await pageShot(page, "chat-list");
    await context.close();
  }, 120_000);

  it("the role chooser lists characters; every language fits a 360 px phone", async () => {
    await server.db.character.create({
      data: {
        name: "Nova Reyes",
        description: "A starship engineer who fixes anything but her own heart",
        greeting: "Hand me that spanner?",
        tags: ["scifi"],
        isPublic: true,
        conversationCount: 5,
      },
    });
    for (const language of ["ja", "ko", "ru"] as const) {
      const context = await newAppContext(browser, { adult: true, viewport: PHONE, language });
      const page = await context.newPage();
      await page.goto(`${server.url}/chat`);
      await guestWithCredits(page, 1);
      await page.getByTestId("chat-new").click();
      await page.getByTestId("role-chooser").waitFor();
      await page.getByTestId("chooser-item").first().waitFor();
      await pageShot(page, `chat-chooser-${language}`);
      await page.getByTestId("chooser-item").first().locator("p").first().click();
      await page.waitForURL(/\/chat\?c=\d+$/);
      await page.getByTestId("chat-input").waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await pageShot(page, `chat-conversation-${language}`);
      expect(missingKeys(language, await usedKeys(page))).toEqual([]);
      await context.close();
    }
  }, 120_000);
});
