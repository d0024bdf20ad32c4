import { afterEach } from "vitest";
import { takePageErrors } from "./browser.ts";

// A browser test fails on any uncaught exception of its pages (issue 52 item 13): one that threw while what it
// checked still showed would otherwise pass, and one file only logged them.
afterEach(() => {
  const errors = takePageErrors();
  if (errors.length) throw new Error(`uncaught exceptions in the page:\n${errors.join("\n\n")}`);
});
