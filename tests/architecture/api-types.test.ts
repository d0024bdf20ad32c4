import fs from "node:fs/promises";
import { expect, it } from "vitest";
import { API_TYPES_FILE, apiTypes } from "../../scripts/api-types.ts";

/**
 * The browser apps type every answer from server/src/contract/api.gen.d.ts (docs/decisions/229). `npm test` writes it
 * before type-checking; this catches a committed copy that a route's change left behind.
 */
it("the committed API types are the ones the routes generate", async () => {
  expect(await fs.readFile(API_TYPES_FILE, "utf8"), "run `npm run api-types` and commit the file").toBe(await apiTypes());
}, 120_000);
