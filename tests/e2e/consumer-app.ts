import fs from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Locator, Page, Request, Response } from "playwright-core";
import { ensureViteBuild } from "./vite-build.ts";

/** Builds dist/consumer when it is missing or older than its sources. */
export function ensureConsumerBuild(): Promise<void> {
  return ensureViteBuild("consumer");
}

export interface AppOptions {
  /** skip the age gate (it is remembered on the device) */
  adult?: boolean;
  language?: "en" | "ja" | "ko" | "ru";
  viewport?: { width: number; height: number };
  /** the visitor's cookie choice: "ask" shows the banner; default: already answered, advertising and analytics refused */
  consent?: "ask" | { analytics: boolean; advertising: boolean };
  /** the running flash sale already shown: the home page does not open it over the page 1.5 s in */
  saleSeen?: boolean;
}

/** A phone (360 px) past the age gate and the flash sale, in `language`, signed in as this account. */
export async function signedInPhone(browser: Browser, who: { token: string }, language: NonNullable<AppOptions["language"]>) {
  const context = await newAppContext(browser, { adult: true, language, viewport: { width: 360, height: 780 }, saleSeen: true });
  await context.addInitScript((token) => localStorage.setItem("reverie_token", token), who.token);
  return { context, page: await context.newPage() };
}

/** A fresh browser profile on the app, optionally past the age gate and in a language. */
export async function newAppContext(browser: Browser, opts: AppOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: opts.viewport ?? { width: 1280, height: 860 }, acceptDownloads: true, serviceWorkers: "block" });
  await context.addInitScript(
    ({ adult, language, consent, saleSeen }) => {
      if (sessionStorage.getItem("__e2e_init")) return;
      sessionStorage.setItem("__e2e_init", "1");
      if (adult) localStorage.setItem("reverie_age_confirmed", "1");
      if (saleSeen) localStorage.setItem("reverie_flash_sale_seen", String(Date.now()));
      if (language) localStorage.setItem("reverie_language", language);
      if (consent) localStorage.setItem("reverie_consent", JSON.stringify({ version: 1, necessary: true, ...consent, decidedAt: Date.now() }));
    },
    {
      adult: opts.adult ?? false,
      saleSeen: opts.saleSeen ?? false,
      language: opts.language ?? null,
      consent: opts.consent === "ask" ? null : (opts.consent ?? { analytics: false, advertising: false }),
    },
  );
  return context;
}

/** Two animation frames: what an answer already received has rendered by then (React commits within one). */
export function nextFrames(page: Page): Promise<unknown> {
  return page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * Moves the page's fake clock (`context.clock.install()` before the page loaded) `ms` ahead at once, firing every timer
 * due on the way, then lets the page settle: until two rounds in a row start no request, each round waits for the page's
 * pending work (a round trip behind its tasks and a frame), runs its timers half a second ahead (React's reveal of
 * lazily loaded parts, transitions) and waits for the requests started meanwhile to be answered. What a real wait of `ms`
 * lets the app do, for a test that proves something does NOT happen within that time, without waiting it out. Not for
 * requests that never answer.
 */
export async function skipAhead(page: Page, ms: number): Promise<void> {
  let started: Request[] = [];
  const onRequest = (r: Request) => started.push(r);
  page.on("request", onRequest);
  try {
    await page.clock.fastForward(ms);
    for (let round = 0, quiet = 0; quiet < 2; round++) {
      if (round === 30) throw new Error("the page keeps starting requests");
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
      await page.clock.runFor(500);
      const answered = started.map((r) => r.response().then((res) => res?.finished()));
      quiet = answered.length === 0 ? quiet + 1 : 0;
      started = [];
      await Promise.all(answered);
    }
  } finally {
    page.off("request", onRequest);
  }
}

/** The studio as a new guest in `language`, on a 360 px phone, past the age gate and the flash sale. */
export async function guestStudio(browser: Browser, url: string, language: NonNullable<AppOptions["language"]>): Promise<Page> {
  const context = await newAppContext(browser, { adult: true, language, viewport: { width: 360, height: 800 }, saleSeen: true });
  const page = await context.newPage();
  await page.goto(`${url}/home`);
  await page.getByTestId("try-guest").click();
  await page.waitForURL(/\/creationStudio$/);
  await page.getByTestId("mode-switch").waitFor();
  return page;
}

type Language = NonNullable<AppOptions["language"]>;

/**
 * The studio in `language` on a 360 px phone, past the age gate and the flash sale, signed in as `who` (a guest made
 * through POST /api/login/visitor, which the try-guest tap calls) and opened straight: one page load, for journeys
 * that start in the studio. guestStudio walks there from the home page's tap instead.
 */
export async function studioAs(browser: Browser, url: string, who: { token: string }, language: Language): Promise<Page> {
  const { page } = await signedInPhone(browser, who, language);
  await page.goto(`${url}/creationStudio`);
  await page.getByTestId("mode-switch").waitFor();
  return page;
}

/**
 * Runs `check` on the screen as it stands in each of `languages`, the page's current one first, switching through the
 * header's menu (switchLanguage): one journey's screens checked for every language's words and fit without walking
 * the journey again in each. Leaves the page in the last language checked.
 */
export async function inEachLanguage(page: Page, languages: readonly Language[], check: (language: Language) => Promise<void>): Promise<void> {
  const current = await page.evaluate(() => document.documentElement.lang);
  for (const language of [...languages].sort((a, b) => Number(b === current) - Number(a === current))) {
    if (language !== current) await switchLanguage(page, language);
    await check(language);
  }
}

/** Home: scrolls to the gallery heading once the template row above has its final height (the gallery loads when scrolled to). */
export async function scrollToGallery(page: Page): Promise<void> {
  await page.getByTestId("template-showcase-loading").waitFor({ state: "detached" });
  await page.getByTestId("gallery-heading").scrollIntoViewIfNeeded();
}

/**
 * Opens /home again with the flash sale not yet seen in this browser and waits for its popup. The app visited on the
 * way in (signing in as a guest) shows the popup 1.5 s after a page opens, once the products answer, and marks it seen
 * then: a key removed while that page still ran could be written again by it before the next page read it (a popup
 * missing in full runs, never alone). So the app is left first, for a same-origin answer that runs no script, and
 * the key is removed there, where nothing can write it back. Without a popup the error says what the page had (its
 * address, what the app keeps, the dialogs open and the products it was offered).
 */
export async function homeWithFlashSale(page: Page, serverUrl: string): Promise<Locator> {
  await page.goto(`${serverUrl}/api/health`);
  await page.evaluate(() => localStorage.removeItem("reverie_flash_sale_seen"));
  let offered = "no answer";
  const onResponse = (r: Response) => {
    if (!r.url().includes("/api/index/getProductsLimited")) return;
    void r
      .text()
      .then((body) => (offered = `${r.status()} ${body.slice(0, 600)}`))
      .catch(() => (offered = `${r.status()}`));
  };
  page.on("response", onResponse);
  try {
    await page.goto(`${serverUrl}/home`);
    const sale = page.getByTestId("flash-sale");
    await sale.waitFor().catch(async (err: Error) => {
      const had = await page.evaluate(() => ({
        url: location.href,
        kept: Object.fromEntries(Object.entries(localStorage).filter(([k]) => k !== "reverie_token")),
        dialogs: [...document.querySelectorAll('[role="dialog"], [role="presentation"]')].map((d) => d.getAttribute("data-testid") ?? d.tagName),
        at: Date.now(),
      }));
      throw new Error(`no flash sale popup: ${JSON.stringify(had)}; products offered: ${offered}`, { cause: err });
    });
    return sale;
  } finally {
    page.off("response", onResponse);
  }
}

/**
 * Switches the app to `language` where the page is, through the header's language menu (as a person does, without
 * reloading), and waits until the app speaks it: a test's later languages visit the screens its journey left. A page
 * that already speaks it is left as it is (each switch re-renders the page and, signed in, saves it on the account).
 */
export async function switchLanguage(page: Page, language: NonNullable<AppOptions["language"]>): Promise<void> {
  if ((await page.evaluate(() => document.documentElement.lang)) !== language) {
    await page.getByTestId("language-switcher").click();
    await page.getByTestId(`language-${language}`).click();
  }
  await speaking(page, language);
}

/**
 * Waits until the page shows `language`: the document says it and the header's language button has its label in it.
 * Every text on screen follows a change of language in the same render as that label, so what is read or shot after
 * this is in the new language, not the last one.
 */
export async function speaking(page: Page, language: NonNullable<AppOptions["language"]>): Promise<void> {
  await page.waitForFunction(
    ([lng, label]) =>
      document.documentElement.lang === lng && document.querySelector('[data-testid="language-switcher"]')?.getAttribute("aria-label") === label,
    [language, localeText(language, "lang.choose")] as const,
  );
}

export async function storedToken(page: Page): Promise<string | null> {
  return page.evaluate(() => localStorage.getItem("reverie_token"));
}

/** Every translation key the page has looked up so far (recorded by the app's i18n post-processor). */
export async function usedKeys(page: Page): Promise<string[]> {
  return page.evaluate(() => [...((window as Window & { __reverieUsedKeys?: Set<string> }).__reverieUsedKeys ?? new Set<string>())]);
}

/** Keys the page looked up while their texts were not loaded (it showed the key itself). */
export async function missingTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => [...((window as Window & { __reverieMissingKeys?: Set<string> }).__reverieMissingKeys ?? new Set<string>())]);
}

type Tree = { [k: string]: string | Tree };

/** Keys (as the code uses them) that a locale file lacks: plural lookups count when any plural form exists. */
export function missingKeys(language: string, keys: string[]): string[] {
  const tree = JSON.parse(fs.readFileSync(path.resolve(`consumer/src/i18n/locales/${language}.json`), "utf8")) as Tree;
  const has = (key: string) => {
    const parts = key.split(".");
    const last = parts.pop()!;
    let node: string | Tree | undefined = tree;
    for (const p of parts) node = typeof node === "object" ? node[p] : undefined;
    if (typeof node !== "object") return false;
    return typeof node[last] === "string" || Object.keys(node).some((k) => k.startsWith(`${last}_`));
  };
  return keys.filter((k) => !has(k));
}

/**
 * A text of the app's locale file by its key ("ns.name"), as the app shows it: with `count`, the plural form the
 * language picks for it, with the count put in.
 */
export function localeText(language: string, key: string, count?: number): string {
  let node: string | Tree = JSON.parse(fs.readFileSync(path.resolve(`consumer/src/i18n/locales/${language}.json`), "utf8")) as Tree;
  const parts = key.split(".");
  if (count !== undefined) parts[parts.length - 1] += `_${new Intl.PluralRules(language).select(count)}`;
  for (const p of parts) node = typeof node === "object" ? node[p] : node;
  if (typeof node !== "string") throw new Error(`${language} has no text ${key}`);
  return count === undefined ? node : node.replaceAll("{{count}}", String(count));
}

/**
 * A listening API whose PUBLIC_URL is its own address: payment providers (the sandbox checkout) build their
 * return and notification URLs from it, so it must be known before the app is created.
 */
export async function startAppServer(overrides: Record<string, string> = {}) {
  const { startTestServer } = await import("../server-utils.ts");
  const server = await startTestServer(overrides, undefined, { ownPublicUrl: true });
  await seedDemoData(server);
  return server;
}

/** A full-page screenshot taken from the top, so the sticky header sits where it belongs. */
export async function pageShot(page: Page, name: string): Promise<void> {
  const { screenshot } = await import("./browser.ts");
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

/** The demo data `npm start` seeds (templates, products, channels): the journeys need what a real install has. */
export async function seedDemoData(t: { db: import("../../server/src/db/client.ts").Db; config: import("../../server/src/config.ts").Config }): Promise<void> {
  const [{ seed }, { silentLog }] = await Promise.all([import("../../prisma/seed.ts"), import("../db-utils.ts")]);
  await seed(t.db, { config: t.config, log: silentLog });
}

/**
 * Renders the preview loops of the first `count` enabled image-to-video templates only (each is an ffmpeg render on
 * this machine's CPU; the others are left without one), and returns those templates.
 */
export async function renderFirstPreviews(server: Awaited<ReturnType<typeof startAppServer>>, count: number) {
  const [{ createTemplatePreviews }, { silentLog }] = await Promise.all([
    import("../../server/src/domains/templates/template-previews.ts"),
    import("../db-utils.ts"),
  ]);
  const first = await server.db.template.findMany({
    where: { enabled: true, mode: "image_to_video" },
    orderBy: [{ sortOrder: "asc" }, { id: "asc" }],
    take: count,
  });
  await server.db.template.updateMany({ where: { id: { notIn: first.map((t) => t.id) } }, data: { enabled: false } });
  const engine = server.services.engines.require("local");
  await createTemplatePreviews({ db: server.db, storage: server.services.storage, engine, log: silentLog }).refresh();
  await server.db.template.updateMany({ where: {}, data: { enabled: true } });
  return first;
}

/**
 * What is wrong with the layout of the audio or video uploader (`kind`) as shown: each of its buttons, texts, slider
 * and player against the others and against the uploader's own box (which lies in its card), and each button's label on one line (a squeezed
 * label breaks inside words, a character a line in Japanese). Empty when nothing overlaps, spills or is squeezed.
 */
export function uploaderClashes(page: Page, kind: "audio" | "video"): Promise<string[]> {
  return page.evaluate((kind) => {
    const root = document.querySelector(`[data-testid="${kind}-uploader"]`)!;
    const PART = "button, .MuiTypography-root, .MuiSlider-root, video, audio, canvas";
    const parts = [...root.querySelectorAll<HTMLElement>(PART)].filter((el) => !el.parentElement!.closest(PART) && el.getClientRects().length > 0);
    const name = (el: HTMLElement) => el.dataset.testid ?? (el.textContent?.trim() || el.tagName.toLowerCase());
    /** The line boxes of an element's text: a label that does not fit its button is drawn outside the button's box. */
    const textRects = (el: HTMLElement) => {
      const out: DOMRect[] = [];
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      const range = document.createRange();
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        range.selectNodeContents(node);
        out.push(...[...range.getClientRects()].filter((r) => r.width > 0));
      }
      return out;
    };
    /** What the element covers on screen: its box and any text drawn past it. */
    const extent = (el: HTMLElement) => {
      const all = [el.getBoundingClientRect(), ...textRects(el)];
      return {
        left: Math.min(...all.map((r) => r.left)),
        right: Math.max(...all.map((r) => r.right)),
        top: Math.min(...all.map((r) => r.top)),
        bottom: Math.max(...all.map((r) => r.bottom)),
      };
    };
    const box = root.getBoundingClientRect();
    const card = root.closest(".MuiPaper-root")!.getBoundingClientRect();
    const problems = box.left < card.left - 0.5 || box.right > card.right + 0.5 ? ["the uploader reaches past its card"] : [];
    const rects = parts.map(extent);
    parts.forEach((el, i) => {
      const r = rects[i];
      const own = el.getBoundingClientRect();
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5) problems.push(`${name(el)} reaches past the uploader`);
      if (r.left < own.left - 0.5 || r.right > own.right + 0.5) problems.push(`${name(el)} spills out of its box`);
      const lines = new Set(textRects(el).map((t) => Math.round(t.top))).size;
      if (el.matches(".MuiButton-root") && lines > 1) problems.push(`${name(el)} breaks over ${lines} lines`);
      for (let j = i + 1; j < parts.length; j++) {
        const o = rects[j];
        const w = Math.min(r.right, o.right) - Math.max(r.left, o.left);
        const h = Math.min(r.bottom, o.bottom) - Math.max(r.top, o.top);
        if (w > 0.5 && h > 0.5) problems.push(`${name(el)} overlaps ${name(parts[j])}`);
      }
    });
    return problems;
  }, kind);
}
