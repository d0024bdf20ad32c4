import { describe, expect, it } from "vitest";
import { appForThisFile, startAsGuest } from "./app-per-file.ts";
import { newAppContext, pageShot } from "./consumer-app.ts";

/** Issue 29 defect 7 on a phone: a guest's characters stay private, and a quota is explained in the person's language. */
describe("what a guest may make, in the character editor", () => {
  const app = appForThisFile({ QUOTA_CHARACTERS: "1" });

  it("the public switch waits for a login; the second character is refused with the quota in Russian", async () => {
    const context = await newAppContext(app.browser, { adult: true, language: "ru", viewport: { width: 360, height: 780 } });
    await context.addInitScript(() => localStorage.setItem("reverie_flash_sale_seen", String(Date.now())));
    const page = await context.newPage();
    await startAsGuest(page, app.server.url);
    await page.goto(`${app.server.url}/characterCreatEdit`);
    await page.getByTestId("character-public-after-login").waitFor();
    expect(await page.getByTestId("character-public").isDisabled()).toBe(true);
    await page.getByTestId("character-name").fill("Mira");
    await page.getByTestId("character-save").click();
    await page.waitForURL(/\/chat\?c=\d+/);
    await page.goto(`${app.server.url}/characterCreatEdit`);
    await page.getByTestId("character-name").fill("Nova");
    await page.getByTestId("character-save").click();
    expect(await page.getByTestId("character-error").innerText()).toBe("У вас может быть не больше 1 персонажей. Удалите одного, чтобы создать нового");
    await pageShot(page, "consumer-character-guest-quota-360");
    const guest = await app.server.db.user.findFirstOrThrow({ where: { loginType: "visitor" }, orderBy: { id: "desc" } });
    expect(await app.server.db.character.findMany({ where: { userId: guest.id }, select: { name: true, isPublic: true } })).toEqual([
      { name: "Mira", isPublic: false },
    ]);
    await context.close();
  }, 90_000);
});
