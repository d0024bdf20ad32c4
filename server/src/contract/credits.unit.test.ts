import { describe, expect, it } from "vitest";
import { EARNING_REASONS } from "./creator-payouts.ts";
import { ledgerLabel } from "./credits.ts";
import { MESSAGE_LEDGER_REASON } from "./messages.ts";
import { REWARD_REASONS } from "./rewards.ts";
import { TIP_LEDGER_REASON } from "./tips.ts";

describe("credit history labels", () => {
  it("names every reason a creator's earnings, a tip, an unlock or a gift is written with, none as 'other'", () => {
    const reasons = [...EARNING_REASONS, ...Object.values(TIP_LEDGER_REASON), ...Object.values(MESSAGE_LEDGER_REASON), ...Object.values(REWARD_REASONS)];
    expect(reasons.filter((reason) => ledgerLabel(reason) === "other")).toEqual([]);
  });
});
