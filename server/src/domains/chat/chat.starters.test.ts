import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStorage } from "../../storage/storage.ts";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { STARTERS_UNTIL } from "./chat.characters.ts";
import { seedStarterCharacters, STARTER_CHARACTERS } from "./chat.seed.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const catalogue = async (query = "") =>
  (await t.http.get(`/api/RoleChat/getCharacterList?limit=50${query}`).expect(200)).body.data as {
    list: { id: number; name: string; avatar_url: string | null; age: number | null; greeting: string }[];
    total: number;
  };
const starterNames = STARTER_CHARACTERS.map((c) => c.name).sort();

describe("starter characters (issue 31.3)", () => {
  it("are seeded once, adults with a greeting and an avatar the local engine painted", async () => {
    await seedStarterCharacters(t.db, { config: t.config });
    await seedStarterCharacters(t.db, { config: t.config });
    const { list } = await catalogue();
    expect(list.map((c) => c.name).sort()).toEqual(starterNames);
    const storage = createStorage(t.config);
    for (const c of list) {
      expect(c.age).toBeGreaterThanOrEqual(18);
      expect(c.greeting.length).toBeGreaterThan(10);
      expect(c.avatar_url).toContain("/media/");
    }
    const avatar = await sharp(await storage.get("site/characters/elena-marsh.jpg")).metadata();
    expect([avatar.format, avatar.width, avatar.height]).toEqual(["jpeg", 512, 512]);
  });

  it(`stay in the catalogue while people have shared fewer than ${STARTERS_UNTIL} characters, then step aside`, async () => {
    const owners = await Promise.all(Array.from({ length: STARTERS_UNTIL }, () => visitor(t)));
    const share = (i: number) => t.db.character.create({ data: { userId: owners[i].userId, name: `Shared ${i}`, greeting: "Hi", isPublic: true } });
    for (let i = 0; i < STARTERS_UNTIL - 1; i++) await share(i);
    const before = await catalogue("&sort=new");
    expect(before.total).toBe(STARTER_CHARACTERS.length + STARTERS_UNTIL - 1);
    expect(before.list.filter((c) => starterNames.includes(c.name))).toHaveLength(STARTER_CHARACTERS.length);

    await share(STARTERS_UNTIL - 1);
    const after = await catalogue("&sort=popular");
    expect(after.total).toBe(STARTERS_UNTIL);
    expect(after.list.some((c) => starterNames.includes(c.name))).toBe(false);
    // a conversation already started with a starter still opens
    const starter = await t.db.character.findFirstOrThrow({ where: { userId: null } });
    await t.http.get(`/api/RoleChat/characterDetails?id=${starter.id}`).set("token", owners[0].token).expect(200);
  });
});
