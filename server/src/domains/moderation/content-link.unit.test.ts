import { describe, expect, it } from "vitest";
import type { Db } from "../../db/client.ts";
import { resolveContentLink } from "./content-link.ts";

const nothing = async () => null;
const content = { task: { byMediaKey: nothing }, character: {}, creator_page: {} } as unknown as Parameters<typeof resolveContentLink>[2];

describe("a link pasted into the notice form", () => {
  it("with a broken escape names nothing instead of throwing (the form answered 500)", async () => {
    await expect(resolveContentLink({} as Db, "https://reverie.example/%E0%A4%A", content, nothing)).resolves.toBeNull();
  });

  it("still names a gallery item", async () => {
    await expect(resolveContentLink({} as Db, "https://reverie.example/home?item=12", content, nothing)).resolves.toEqual({ type: "task", id: 12 });
  });
});
