import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Download, type Page } from "playwright-core";

const CHROMIUM = "/usr/bin/chromium";
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Where the test run's shared Chromium listens (tests/e2e/browser-setup.ts); unset outside the browser tests. */
const SHARED_BROWSER = "REVERIE_TEST_BROWSER_WS";

/**
 * Debian's Chromium, driven by playwright-core (ARCHITECTURE.md §9: `npx playwright install` cannot work here). In the
 * browser tests a plain call connects to the run's one Chromium instead of starting another (a few seconds each, and
 * every test file asked for one); flags of its own (a fake camera) still start a browser of its own.
 */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  const shared = process.env[SHARED_BROWSER];
  if (shared && extraArgs.length === 0) return watchPageErrors(await chromium.connect(shared));
  return watchPageErrors(await chromium.launch({ executablePath: CHROMIUM, args: [...ARGS, ...extraArgs] }));
}

/** Uncaught exceptions of pages opened through `launchBrowser`'s browsers since the last `takePageErrors()`. */
const pageErrors: string[] = [];

/** The page errors seen since the last call, which it forgets (tests/e2e/page-errors.setup.ts fails the test on any). */
export function takePageErrors(): string[] {
  return pageErrors.splice(0);
}

/**
 * Every page of every context this browser opens reports its uncaught exceptions: a test whose page threw fails, even
 * where what it checks still showed (issue 52 item 13).
 */
function watchPageErrors(browser: Browser): Browser {
  const watched = new WeakSet<BrowserContext>();
  const watch = (context: BrowserContext) => {
    if (watched.has(context)) return;
    watched.add(context);
    // a test's own init scripts also run in the blank page a new tab starts as, where storage is denied: not the app's
    const onPage = (page: Page) =>
      page.on("pageerror", (err) => {
        if (page.url() !== "about:blank") pageErrors.push(`${page.url()}: ${err.stack ?? err.message}`);
      });
    for (const page of context.pages()) onPage(page);
    context.on("page", onPage);
  };
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    watch(context);
    return context;
  };
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (options) => {
    const page = await newPage(options);
    // a page of its own context, not yet navigated: watched before anything runs in it
    watch(page.context());
    return page;
  };
  return browser;
}

/** Starts the run's shared Chromium and tells the test files where it is; returns its stop. */
export async function startSharedBrowser(): Promise<() => Promise<void>> {
  const server = await chromium.launchServer({ executablePath: CHROMIUM, args: ARGS });
  process.env[SHARED_BROWSER] = server.wsEndpoint();
  return async () => {
    delete process.env[SHARED_BROWSER];
    await server.close();
  };
}

export const SCREENSHOT_DIR = path.resolve("tests/output/screenshots");

/** Writes a full-page screenshot to tests/output/screenshots/<name>.png (ignored by git) for people to look at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await fs.mkdir(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** A download saved on this machine (the shared browser runs apart, so `download.path()` is not available). */
export async function downloadedFile(download: Download): Promise<string> {
  const file = path.join(os.tmpdir(), `reverie-download-${crypto.randomBytes(6).toString("hex")}-${download.suggestedFilename()}`);
  await download.saveAs(file);
  return file;
}
