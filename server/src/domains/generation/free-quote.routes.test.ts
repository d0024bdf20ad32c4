import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp } from "../../../../tests/db-utils.ts";
import { seedTemplates } from "../templates/templates.seed.ts";

let t: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  t = await createTestApp();
  await seedTemplates(t.db, { config: t.config });
});
afterAll(() => t?.close());

const quote = async (b: object) =>
  (await t.http.post("/api/Generation/getDurationPoints").send(b).expect(200)).body.data as { points: number; free_applies: boolean };

/** Issue 11 item 7: the app asks the server whether the free generation covers a request instead of guessing. */
describe("getDurationPoints says whether a free generation pays for the request", () => {
  it("only a one-block 480P video (or one image) at a 1-credit template is covered", async () => {
    expect(await quote({ resolution: "480P", duration: 5 })).toMatchObject({ points: 1, free_applies: true });
    expect(await quote({ resolution: "720P", duration: 5 })).toMatchObject({ points: 2, free_applies: false });
    expect(await quote({ resolution: "720P", duration: 10 })).toMatchObject({ points: 4, free_applies: false });
    expect(await quote({ resolution: "480P", duration: 10 })).toMatchObject({ points: 2, free_applies: false });
    expect(await quote({ type: "image", count: 1 })).toMatchObject({ points: 1, free_applies: true });
    const pricey = await t.db.template.findFirstOrThrow({ where: { creditPrice: { gt: 1 }, mode: "image_to_video" } });
    expect(await quote({ resolution: "480P", duration: 5, template_id: pricey.id })).toMatchObject({ free_applies: false });
  });
});
