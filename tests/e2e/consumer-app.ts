import fs from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
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
}

/** A fresh browser profile on the app, optionally past the age gate and in a language. */
export async function newAppContext(browser: Browser, opts: AppOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: opts.viewport ?? { width: 1280, height: 860 }, acceptDownloads: true, serviceWorkers: "block" });
  await context.addInitScript(
    ({ adult, language, consent }) => {
      if (sessionStorage.getItem("__e2e_init")) return;
      sessionStorage.setItem("__e2e_init", "1");
      if (adult) localStorage.setItem("reverie_age_confirmed", "1");
      if (language) localStorage.setItem("reverie_language", language);
      if (consent) localStorage.setItem("reverie_consent", JSON.stringify({ version: 1, necessary: true, ...consent, decidedAt: Date.now() }));
    },
    {
      adult: opts.adult ?? false,
      language: opts.language ?? null,
      consent: opts.consent === "ask" ? null : (opts.consent ?? { analytics: false, advertising: false }),
    },
  );
  return context;
}

/** A 360 px phone past the age gate, in `language`, signed in with `token`, the flash sale already seen. */
export async function signedInPhone(browser: Browser, token: string, language: NonNullable<AppOptions["language"]>): Promise<BrowserContext> {
  const context = await newAppContext(browser, { adult: true, language, viewport: { width: 360, height: 780 } });
  await context.addInitScript((t) => {
    localStorage.setItem("reverie_token", t);
    localStorage.setItem("reverie_flash_sale_seen", String(Date.now()));
  }, token);
  return context;
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
 * A listening API whose PUBLIC_URL is its own address: payment providers (the sandbox checkout) build their
 * return and notification URLs from it, so it must be known before the app is created.
 */
export async function startAppServer(overrides: Record<string, string> = {}) {
  const [{ freePort }, { startTestServer }] = await Promise.all([import("../net-utils.ts"), import("../server-utils.ts")]);
  const port = await freePort();
  const server = await startTestServer({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, ...overrides });
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
