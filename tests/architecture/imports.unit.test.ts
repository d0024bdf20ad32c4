import path from "node:path";
import { cruise, type ICruiseResult } from "dependency-cruiser";
import { describe, expect, it } from "vitest";
import { PROJECT_DIR } from "../../server/src/paths.ts";
import { contractLists, findVocabularyCopies } from "./vocabulary.ts";

/** The import rules live in .dependency-cruiser.cjs (docs/decisions/051); this runs them as part of `npm test`. */
describe("import rules", () => {
  it("no import breaks a rule of .dependency-cruiser.cjs, and there are no import circles", async () => {
    const config = (await import(path.join(PROJECT_DIR, ".dependency-cruiser.cjs"))).default;
    const cwd = process.cwd();
    process.chdir(PROJECT_DIR);
    try {
      const { output } = await cruise(["server/src", "consumer/src", "console/src", "prisma/seed.ts"], {
        ...config.options,
        ruleSet: { forbidden: config.forbidden },
        validate: true,
      });
      const result = output as ICruiseResult;
      const violations = result.summary.violations.map(
        (v) => `${v.rule.name}: ${v.from} -> ${v.to}${v.cycle ? ` (circle: ${v.cycle.map((c) => c.name).join(" -> ")})` : ""}`,
      );
      expect(violations).toEqual([]);
      // the rules only mean something if the whole tree was read
      expect(result.summary.totalCruised).toBeGreaterThan(300);
    } finally {
      process.chdir(cwd);
    }
  }, 60_000);
});

describe("one vocabulary", () => {
  it("no word list of server/src/contract is typed again anywhere else", async () => {
    const lists = await contractLists(path.join(PROJECT_DIR, "server/src/contract"));
    expect(lists.size).toBeGreaterThan(15);
    const copies = findVocabularyCopies(
      PROJECT_DIR,
      ["server/src", "consumer/src", "console/src", "prisma"],
      lists,
      /server\/src\/contract|server\/src\/db\/generated|node_modules|\.test\.tsx?$/,
    );
    expect(copies.map((c) => `${c.file}:${c.line} [${c.words.join(", ")}] repeats ${c.list}`)).toEqual([]);
  });
});
