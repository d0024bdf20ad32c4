import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type Download, type Page } from "playwright-core";

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
  if (shared && extraArgs.length === 0) return chromium.connect(shared);
  return chromium.launch({ executablePath: CHROMIUM, args: [...ARGS, ...extraArgs] });
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
