import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EARNING_REASONS } from "./creator-payouts.ts";
import { LEDGER_LABELS, LEDGER_REASONS, ledgerLabel } from "./credits.ts";
import { MESSAGE_LEDGER_REASON } from "./messages.ts";
import { REWARD_REASONS } from "./rewards.ts";
import { TIP_LEDGER_REASON } from "./tips.ts";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const domains = path.join(root, "src/domains");
const locales = path.resolve(root, "../consumer/src/i18n/locales");

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [p] : [];
  });
}

/** The reason literals the product writes ledger rows with: a credits call's `reason: "…"`, an order undo's `ledgerReason`. */
function writtenReasons(): Set<string> {
  const found = new Set<string>();
  for (const file of sources(domains)) {
    const text = fs.readFileSync(file, "utf8");
    for (const call of text.matchAll(/\b(?:grant|charge|refund|chargeUpTo|chargeInStatement|moveCall)\(/g)) {
      const m = /reason: "([a-z_]+)"/.exec(text.slice(call.index, call.index + 400).split(/\)[,;]/)[0]!);
      if (m) found.add(m[1]!);
    }
    for (const m of text.matchAll(/ledgerReason: ([^,\n]+)/g)) for (const s of m[1]!.matchAll(/"([a-z_]+)"/g)) found.add(s[1]!);
  }
  return found;
}

describe("credit history labels", () => {
  it("names every reason a creator's earnings, a tip, an unlock or a gift is written with, none as 'other'", () => {
    const reasons = [...EARNING_REASONS, ...Object.values(TIP_LEDGER_REASON), ...Object.values(MESSAGE_LEDGER_REASON), ...Object.values(REWARD_REASONS)];
    expect(reasons.filter((reason) => ledgerLabel(reason) === "other")).toEqual([]);
  });

  it("names every reason the domains write the ledger with, none as 'other'", () => {
    const written = writtenReasons();
    // the scan finds the calls it is meant to: a join, an unlock's refund on a ban, an order's refund and chargeback
    for (const r of ["creator_membership", "creator_membership_refund", "generation", "order_refund", "chargeback", "chat_message"])
      expect(written).toContain(r);
    expect([...written].filter((reason) => ledgerLabel(reason) === "other")).toEqual([]);
  });

  it("gives each kind its own words in every language: a membership join, an unlock and a refund after a ban read differently", () => {
    for (const lang of ["en", "ja", "ko", "ru"]) {
      const words = JSON.parse(fs.readFileSync(path.join(locales, `${lang}.json`), "utf8")).rewards.history.label as Record<string, string>;
      expect(Object.keys(words).sort(), lang).toEqual([...LEDGER_LABELS].sort());
      const texts = LEDGER_LABELS.map((l) => words[l]!.trim());
      expect(new Set(texts).size, `${lang}: two kinds share words`).toBe(texts.length);
    }
    expect(ledgerLabel("creator_membership")).not.toBe(ledgerLabel("message_unlock"));
    expect(LEDGER_REASONS).toContain(ledgerLabel("creator_membership_refund"));
    expect(ledgerLabel("a_reason_no_longer_written")).toBe("other");
  });
});
