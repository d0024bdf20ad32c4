import { beforeAll, describe, expect, it } from "vitest";
import { photo } from "../fixtures/media.ts";
import { newStaff, type StaffCredentials } from "../staff-utils.ts";
import { registeredUser, uploadImage } from "../training-utils.ts";
import { visitor } from "../db-utils.ts";
import { screenshot } from "./browser.ts";
import { signInToConsole } from "./console-build.ts";
import { consoleForThisFile } from "./console-per-file.ts";

const app = consoleForThisFile();
let moderator: StaffCredentials;
let pageId: number;

const post = (token: string, path: string, body: Record<string, unknown>) => app.server.http.post(path).set("token", token).send(body).expect(200);

/** A creator page offering a membership, three fans (one cancelled), and three published creations (one suspended). */
async function seed() {
  const creator = await registeredUser(app.server);
  const cover = await uploadImage(app.server, creator.token, await photo(320, 400));
  const model = await app.server.db.characterModel.create({
    data: { userId: creator.userId, name: "Mira Vale", homeLink: "MiraConsole", coverUploadId: cover, status: "success", cost: 5, triggerWord: "mir" },
  });
  await post(creator.token, "/api/Subscribe/publishPage", { role_id: model.id, membership_price: 25 });
  pageId = (await app.server.db.creatorPage.findUniqueOrThrow({ where: { userId: creator.userId } })).id;
  for (let i = 0; i < 3; i++) {
    const fan = await visitor(app.server);
    await app.server.services.credits.grant({ userId: fan.userId, amount: 25, reason: "test", idempotencyKey: `e2e-fan-${fan.userId}` });
    await post(fan.token, "/api/Subscribe/joinMembership", { home_link: "MiraConsole" });
    if (i === 2) await post(fan.token, "/api/Subscribe/cancelMembership", { home_link: "MiraConsole" });
  }
  for (const [i, visibility] of (["public", "members", "public"] as const).entries()) {
    const key = `u/${creator.userId}/results/console-${i}.jpg`;
    await app.server.services.storage.put(key, await photo(240 + i * 40, 320), "image/jpeg");
    const task = await app.server.db.generationTask.create({
      data: { userId: creator.userId, mode: "text_to_image", engine: "local", status: "succeeded", cost: 1, input: {}, outputKey: key },
    });
    await post(creator.token, "/api/Subscribe/publishItem", { task_id: task.id, visibility });
    if (i === 2) await app.server.db.generationTask.update({ where: { id: task.id }, data: { state: "suspended" } });
  }
}

beforeAll(async () => {
  moderator = await newStaff(app.server, ["moderator"]);
  await seed();
}, 300_000);

describe("console: a creator page's memberships and library", () => {
  it("a moderator opens them from the page's show view, filtered by the page, and filters memberships by status", { timeout: 120_000 }, async () => {
    const page = await signInToConsole(app.browser, app.server.url, moderator);
    await page.goto(`${app.server.url}/console/creator-pages/${pageId}/show`);
    await page.waitForSelector("[data-testid=page-memberships]");
    await screenshot(page, "console-creator-page-lists");
    await page.click("[data-testid=page-memberships]");
    await page.waitForSelector('.RaDatagrid-table td:has-text("MiraConsole")');
    expect(await page.locator(".RaDatagrid-table tbody tr").count()).toBe(3);
    expect(await page.innerText(".RaDatagrid-table tbody")).toContain("cancelled");
    await screenshot(page, "console-creator-memberships");
    // the status filter narrows the page's list
    await page.getByRole("combobox", { name: "Status" }).click();
    await page.getByRole("option", { name: "cancelled" }).click();
    await expect.poll(() => page.locator(".RaDatagrid-table tbody tr").count()).toBe(1);

    await page.goto(`${app.server.url}/console/creator-pages/${pageId}/show`);
    await page.click("[data-testid=page-library]");
    await page.waitForSelector(".RaDatagrid-table [data-testid=library-thumbnail]");
    await expect.poll(() => page.locator(".RaDatagrid-table [data-testid=library-thumbnail]").count()).toBe(3);
    // every thumbnail is a real picture the browser loaded
    await expect
      .poll(() => page.$$eval(".RaDatagrid-table [data-testid=library-thumbnail]", (imgs) => imgs.every((i) => (i as HTMLImageElement).naturalWidth > 0)))
      .toBe(true);
    const text = await page.innerText(".RaDatagrid-table tbody");
    expect(text).toContain("members");
    expect(text).toContain("suspended");
    await screenshot(page, "console-creator-library");
    await page.close();
  });
});
