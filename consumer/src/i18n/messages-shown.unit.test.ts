import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const dir = path.dirname(new URL(import.meta.url).pathname);
const root = path.resolve(dir, "../../..");

/**
 * Messages whose situation belongs to a feature another issue builds (docs/decisions/067): kept for it, and they
 * must leave this list when that feature shows them.
 */
const AWAITING_FEATURE: Record<string, string> = {
  trainingFailed: "character-model training (issue 14)",
};

function sources(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(folder, e.name);
    if (e.isDirectory()) return e.name === "generated" || e.name === "locales" ? [] : sources(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** Issue 11 item 15: a SPEC message that only sits in the locale files is a message nobody ever sees. */
describe("every message of the locale files is shown somewhere", () => {
  const en = JSON.parse(fs.readFileSync(path.join(dir, "locales/en.json"), "utf8")) as { msg: Record<string, string> };
  const code = [...sources(path.join(root, "server/src")), ...sources(path.join(root, "consumer/src"))].map((f) => fs.readFileSync(f, "utf8")).join("\n");

  it("the app or the server produces each msg text (its fixed part, before any {{placeholder}})", () => {
    const never = Object.entries(en.msg)
      .filter(([key]) => !(key in AWAITING_FEATURE))
      .filter(([, text]) => !code.includes(text.split("{{")[0]))
      .map(([key, text]) => `${key}: ${text}`);
    expect(never).toEqual([]);
  });

  it("the messages kept for other features still exist (the list does not go stale)", () => {
    for (const key of Object.keys(AWAITING_FEATURE)) expect(en.msg[key], key).toBeTruthy();
  });
});
