import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HOME_LINK_MESSAGES, homeLinkProblem, RESERVED_HOME_LINKS } from "./home-link.ts";

describe("home links", () => {
  it("reserves every page address of the consumer app, so no creator page sits where a page of ours answers first", () => {
    const router = fs.readFileSync(path.join(import.meta.dirname, "../../../consumer/src/routes/router.tsx"), "utf8");
    const pages = [...router.matchAll(/path: "([^"/:*]+)[^"]*"/g)].map((m) => m[1].toLowerCase());
    expect(pages.length).toBeGreaterThan(10);
    for (const page of pages.filter((p) => homeLinkProblem(p) !== HOME_LINK_MESSAGES.length)) {
      expect(RESERVED_HOME_LINKS, page).toContain(page);
    }
  });
});
