import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { screenshot } from "./browser.ts";
import { newAppContext, nextFrames } from "./consumer-app.ts";
import { appForThisFile } from "./app-per-file.ts";

const LANGUAGES = ["en", "ja", "ko", "ru"] as const;
const NARROW = { width: 360, height: 740 };

/**
 * What sticks out at this width: the page and every open dialog must not scroll sideways, and no visible element
 * may reach past the viewport's edges (text clipped by an overflow-hidden box counts too) or out of its card or
 * dialog. Intentional sideways
 * scrollers (a carousel with overflow-x auto) are the only exception.
 */
async function overflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) problems.push(`page scrollWidth ${root.scrollWidth} > ${root.clientWidth}`);
    for (const d of document.querySelectorAll<HTMLElement>(".MuiDialog-paper, [role=dialog]")) {
      if (d.scrollWidth > d.clientWidth + 1)
        problems.push(`dialog ${d.dataset.testid ?? d.className.slice(0, 40)} scrollWidth ${d.scrollWidth} > ${d.clientWidth}`);
    }
    const vw = root.clientWidth;
    const inScroller = (el: Element) => {
      for (let p = el.parentElement; p; p = p.parentElement) {
        const s = getComputedStyle(p);
        if (s.overflowX === "auto" || s.overflowX === "scroll") return true;
      }
      return false;
    };
    for (const el of document.body.querySelectorAll("*")) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || (r.left >= -1 && r.right <= vw + 1)) continue;
      const s = getComputedStyle(el);
      if (s.visibility === "hidden" || s.opacity === "0" || inScroller(el)) continue;
      const text = (el.textContent ?? "").trim().slice(0, 30);
      problems.push(`${el.tagName.toLowerCase()}.${String(el.className).split(" ")[0]} "${text}" spans ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
    // inside the viewport but sticking out of its card or dialog
    for (const el of document.body.querySelectorAll(".MuiPaper-root *")) {
      const r = el.getBoundingClientRect();
      const paper = el.parentElement?.closest(".MuiPaper-root");
      if (!paper || r.width === 0 || r.height === 0 || inScroller(el)) continue;
      const p = paper.getBoundingClientRect();
      if (r.right <= p.right + 1 && r.left >= p.left - 1) continue;
      const s = getComputedStyle(el);
      if (s.visibility === "hidden" || s.opacity === "0" || s.position === "absolute" || s.position === "fixed") continue;
      const text = (el.textContent ?? "").trim().slice(0, 30);
      problems.push(
        `${el.tagName.toLowerCase()}.${String(el.className).split(" ")[0]} "${text}" spans ${Math.round(r.left)}..${Math.round(r.right)} outside its card ${Math.round(p.left)}..${Math.round(p.right)}`,
      );
    }
    return problems;
  });
}

/** Lines that end inside a word: in a label, a break may only fall where there is a space. */
async function midWordBreaks(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const bad: string[] = [];
    for (const el of document.querySelectorAll(sel)) {
      const node = [...el.childNodes].find((n) => n.nodeType === Node.TEXT_NODE) as Text | undefined;
      if (!node) continue;
      const text = node.data;
      const range = document.createRange();
      let lastTop: number | null = null;
      for (let i = 0; i < text.length; i++) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        if (!rect) continue;
        if (lastTop !== null && rect.top > lastTop + 2 && text[i - 1] !== " " && text[i] !== " ") bad.push(`"${text}" breaks before "${text.slice(i)}"`);
        lastTop = rect.top;
      }
    }
    return bad;
  }, selector);
}

/**
 * What overlaps in the login dialog's code row: the field's floating label, its input and the send button's text (each
 * as drawn: a text may spill past its box), and the button's label broken over lines. Empty when all stand apart.
 */
function codeRowClashes(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const row = document.querySelector('[data-testid="login-code-row"]')!;
    const drawn = (el: Element) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return [el.getBoundingClientRect(), ...[...range.getClientRects()].filter((r) => r.width > 0)];
    };
    const parts: [string, Element][] = [
      ["label", row.querySelector("label")!],
      ["input", row.querySelector("input")!],
      ["button", row.querySelector('[data-testid="send-code"]')!],
    ];
    const problems: string[] = [];
    const buttonLines = new Set([...drawn(parts[2][1])].slice(1).map((r) => Math.round(r.top))).size;
    if (buttonLines > 1) problems.push(`the button's label breaks over ${buttonLines} lines`);
    for (let i = 0; i < parts.length; i++)
      for (let j = i + 1; j < parts.length; j++) {
        if (parts[i][0] !== "button" && parts[j][0] !== "button") continue;
        for (const a of drawn(parts[i][1]))
          for (const b of drawn(parts[j][1])) {
            const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
            const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
            if (w > 0.5 && h > 0.5) problems.push(`${parts[i][0]} overlaps ${parts[j][0]}`);
          }
      }
    return [...new Set(problems)];
  });
}

/** Issue 11 item 6: nothing overflows at 360 px in any language, on the main screens and in their dialogs. */
describe("consumer app at 360 px in every language", () => {
  const app = appForThisFile();

  for (const language of LANGUAGES) {
    it(`${language}: home, studio, results, pricing and terms, with the buy, login, flash-sale and template dialogs`, async () => {
      const context = await newAppContext(app.browser, { adult: true, language, viewport: NARROW });
      const page = await context.newPage();
      const found: Record<string, string[]> = {};
      const check = async (name: string) => {
        await page.waitForTimeout(150);
        const problems = await overflow(page);
        if (problems.length) found[name] = problems;
        await screenshot(page, `layout-${language}-${name}`);
      };

      // signed out: home with its flash sale, then the login dialog
      await page.goto(`${app.server.url}/home`);
      await page.getByTestId("try-guest").waitFor();
      await page.getByTestId("flash-sale").waitFor();
      await check("flash-sale");
      await page.keyboard.press("Escape");
      await page.getByTestId("flash-sale").waitFor({ state: "detached" });
      await check("home");
      await page.getByTestId("open-login").click();
      await page.getByTestId("login-dialog").waitFor();
      await check("login");
      // issue 46 item 5: the code field's label, the field and the send button apart, before and after sending
      expect(await codeRowClashes(page)).toEqual([]);
      await page.getByTestId("login-email").fill(`layout-${language}@example.com`);
      await page.getByTestId("send-code").click();
      await page.getByTestId("send-code").filter({ hasText: /\d/ }).waitFor();
      expect(await codeRowClashes(page)).toEqual([]);
      await check("login-code-sent");
      await page.keyboard.press("Escape");
      await page.getByTestId("login-dialog").waitFor({ state: "detached" });

      // a guest: studio (both tabs, the template chooser), results with a row, pricing with the buy dialog, terms
      await page.getByTestId("try-guest").click();
      await page.waitForURL(/\/creationStudio$/);
      await page.getByTestId("photo-choose").waitFor();
      await check("studio");
      await page.getByTestId("open-templates").click();
      await page.getByTestId("template-chooser").locator('button[data-testid^="template-"]').first().waitFor();
      await check("template-chooser");
      await page.keyboard.press("Escape");
      await page.getByTestId("template-chooser").waitFor({ state: "detached" });
      // issue 11 item 12: template names and prompt chips in the visitor's language
      const softZoom = await app.server.db.template.findFirstOrThrow({ where: { name: "Soft Zoom" } });
      const shownName = language === "en" ? softZoom.name : (softZoom.names as Record<string, string>)[language];
      expect((await page.getByTestId("quick-templates").getByTestId(`template-${softZoom.id}`).innerText()).trim()).toBe(shownName);
      await page.getByTestId("tab-images").click();
      await page.getByTestId("prompt").waitFor();
      await page.getByTestId("prompt-chip").first().waitFor();
      const prompt = await app.server.db.promptSuggestion.findFirstOrThrow({ where: { enabled: true }, orderBy: [{ sortOrder: "asc" }, { id: "asc" }] });
      expect(await page.getByTestId("prompt-chip").first().innerText()).toBe(
        language === "en" ? prompt.text : (prompt.texts as Record<string, string>)[language],
      );
      await check("studio-images");

      const user = await app.server.db.user.findFirstOrThrow({ where: { loginType: "visitor" }, orderBy: { id: "desc" } });
      await app.server.db.generationTask.create({
        data: { userId: user.id, mode: "image_to_video", engine: "local", status: "failed", cost: 1, paidWith: "credits", input: {}, finishedAt: new Date() },
      });
      await page.goto(`${app.server.url}/function`);
      await page.getByTestId("results").waitFor();
      await check("results");

      await page.goto(`${app.server.url}/payment`);
      await page.locator('[data-testid^="pricing-buy-"]').first().waitFor();
      await check("pricing");
      await page.getByTestId("bottom-buy").click();
      await page.getByTestId("buy-credits").locator('[data-testid^="product-"]').first().waitFor();
      await check("buy-credits");
      await page.keyboard.press("Escape");
      await page.goto(`${app.server.url}/agreement`);
      await page.waitForLoadState("networkidle");
      await check("agreement");

      const breaks = await midWordBreaks(page, ".MuiBottomNavigationAction-label");
      if (breaks.length) found["bottom-bar labels break inside a word"] = breaks;
      expect(found).toEqual({});
      await context.close();
    }, 120_000);
  }

  it("a bottom-bar tap opens its screen at the top, whatever the last one was scrolled to (issue 46 item 12)", async () => {
    const context = await newAppContext(app.browser, { adult: true, language: "en", viewport: NARROW, saleSeen: true });
    const page = await context.newPage();
    await page.goto(`${app.server.url}/home`);
    await page.getByTestId("try-guest").click();
    await page.waitForURL(/\/creationStudio$/);
    await page.getByTestId("photo-choose").waitFor();
    await page.evaluate(() => window.scrollTo(0, 600));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
    await page.getByTestId("bottom-results").click();
    await page.waitForURL(/\/function$/);
    // a new guest's results, loaded: the list shows "results" only until its empty answer arrives
    await page.getByTestId("results-empty").waitFor();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const title = (await page.locator("h1, h4").first().boundingBox())!;
    expect(title.y).toBeGreaterThanOrEqual(0);
    await screenshot(page, "layout-bottom-bar-results-top");
    await context.close();
  });

  it("a server without a trainer promotes no training: no 'Train my model' on Results, no model picker or 'Train one' in the studio (issue 46 item 10)", async () => {
    const context = await newAppContext(app.browser, { adult: true, language: "en", viewport: NARROW, saleSeen: true });
    const page = await context.newPage();
    // what decides both: whether the server trains, and the person's usable models (no "wait until the network is
    // quiet": a page that keeps a request open never is)
    const asked = page.waitForResponse((r) => r.url().includes("/api/Training/status"));
    const models = page.waitForResponse((r) => r.url().includes("/api/Generation/getLoraCharacterList"));
    await page.goto(`${app.server.url}/home`);
    await page.getByTestId("try-guest").click();
    await page.waitForURL(/\/creationStudio$/);
    await page.getByTestId("photo-choose").waitFor();
    expect(((await (await asked).json()) as { data: { available: boolean } }).data.available).toBe(false);
    await models;
    await nextFrames(page);
    expect(await page.getByTestId("model-picker").count()).toBe(0);
    expect(await page.getByTestId("model-picker-train").count()).toBe(0);
    await page.getByTestId("bottom-results").click();
    await page.getByTestId("results-empty").waitFor();
    // the answer is the page load's one: the results page renders with it a frame after mounting
    await nextFrames(page);
    expect(await page.getByTestId("open-training").count()).toBe(0);
    await screenshot(page, "layout-results-no-training");
    await context.close();
  });

  it("video to video's template chooser opens on a tab with its templates, not an empty Portrait (issue 46 item 11)", async () => {
    const context = await newAppContext(app.browser, { adult: true, language: "en", viewport: NARROW, saleSeen: true });
    const page = await context.newPage();
    await page.goto(`${app.server.url}/home`);
    await page.getByTestId("try-guest").click();
    await page.waitForURL(/\/creationStudio$/);
    await page.getByTestId("mode-video_to_video").click();
    await page.getByTestId("video-uploader").waitFor();
    await page.getByTestId("open-templates").click();
    const chooser = page.getByTestId("template-chooser");
    await chooser.locator('button[data-testid^="template-"]').first().waitFor();
    expect(await chooser.getByTestId("category-Creative").getAttribute("aria-selected")).toBe("true");
    const shown = await chooser
      .locator('button[data-testid^="template-"]')
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-testid")!.slice(9))));
    const v2v = await app.server.db.template.findMany({ where: { enabled: true, mode: "video_to_video" }, select: { id: true } });
    expect(shown.sort()).toEqual(v2v.map((t) => t.id).sort());
    await screenshot(page, "layout-template-chooser-v2v");
    // a tab the person picks stays, empty or not
    await chooser.getByTestId("category-Portrait").click();
    await chooser.getByText("No templates here yet.").waitFor();
    await context.close();
  });
});
