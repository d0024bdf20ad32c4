import { describe, expect, it } from "vitest";
import { photo } from "../fixtures/media.ts";
import { registeredUser } from "../training-utils.ts";
import { appForThisFile } from "./app-per-file.ts";
import { newAppContext, pageShot, scrollToGallery } from "./consumer-app.ts";

/** Issue 29 defect 9: the report dialog chooses no reason for the reporter; the gravest one is acted on at once. */
describe("the report dialog", () => {
  const app = appForThisFile();

  it("opens with no reason chosen, refuses to send without one, and files the reason tapped", async () => {
    const owner = await registeredUser(app.server);
    const key = `media/${owner.userId}/shared.jpg`;
    await app.server.services.storage.put(key, await photo(600, 800), "image/jpeg");
    const task = await app.server.db.generationTask.create({
      data: { userId: owner.userId, mode: "text_to_image", engine: "local", status: "succeeded", cost: 1, input: {}, outputKey: key, isPublic: true },
    });
    const context = await newAppContext(app.browser, { adult: true, viewport: { width: 360, height: 780 } });
    await context.addInitScript(() => localStorage.setItem("reverie_flash_sale_seen", String(Date.now())));
    const page = await context.newPage();
    await page.goto(`${app.server.url}/home`);
    await scrollToGallery(page);
    const item = page.getByTestId(`gallery-item-${task.id}`);
    await item.waitFor();
    await item.getByTestId("report-open").click();
    const dialog = page.getByTestId("report-dialog");
    await dialog.waitFor();
    expect(await dialog.locator('input[type="radio"]:checked').count()).toBe(0);
    await page.getByTestId("report-send").click();
    await dialog.getByText("Please choose a reason").waitFor();
    await pageShot(page, "consumer-report-dialog-no-reason-360");
    expect(await app.server.db.report.count({ where: { targetId: task.id } })).toBe(0);
    // the API asks for a reason too
    const bare = await app.server.http.post("/api/report").send({ target_type: "task", target_id: task.id }).expect(400);
    expect(bare.body.msg).toMatch(/^reason must be /);

    await page.getByTestId("report-other").click();
    expect(await dialog.getByText("Please choose a reason").count()).toBe(0);
    await page.getByTestId("report-send").click();
    await dialog.waitFor({ state: "detached" });
    expect(await app.server.db.report.findMany({ where: { targetId: task.id }, select: { reason: true } })).toEqual([{ reason: "other" }]);
    expect((await app.server.db.generationTask.findUniqueOrThrow({ where: { id: task.id } })).state).not.toBe("suspended");
    await context.close();
  }, 90_000);
});
