import { startSharedBrowser } from "./browser.ts";

/**
 * The browser tests' one Chromium, started before the test files' processes are (they inherit where it listens) and
 * closed after the last; each file connects to it and opens contexts of its own (docs/decisions/232).
 */
export default async function setup() {
  return startSharedBrowser();
}
