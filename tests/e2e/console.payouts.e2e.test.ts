import { beforeAll, describe, expect, it } from "vitest";
import { photo } from "../fixtures/media.ts";
import { newStaff, type StaffCredentials } from "../staff-utils.ts";
import { registeredUser, uploadImage } from "../training-utils.ts";
import { screenshot } from "./browser.ts";
import { signInToConsole } from "./console-build.ts";
import { consoleForThisFile } from "./console-per-file.ts";

const app = consoleForThisFile();
let support: StaffCredentials;
let creator: { token: string; userId: number };
let payoutId: number;
let disputeId: number;

const post = (token: string, path: string, body: Record<string, unknown>) => app.server.http.post(path).set("token", token).send(body).expect(200);

/** A creator with two delivered requests (one disputed by its fan) and a payout request for what is payable. */
async function seed() {
  creator = await registeredUser(app.server);
  const cover = await uploadImage(app.server, creator.token, await photo(320, 400));
  const model = await app.server.db.characterModel.create({
    data: { userId: creator.userId, name: "Ayla Rose", homeLink: "AylaPayouts", coverUploadId: cover, status: "success", cost: 5, triggerWord: "ayl" },
  });
  await post(creator.token, "/api/Subscribe/publishPage", { role_id: model.id, request_price: 150 });
  const ids: { id: number; fan: { token: string; userId: number } }[] = [];
  for (let i = 0; i < 2; i++) {
    const fan = await registeredUser(app.server, 150);
    const id = (
      await post(fan.token, "/api/Subscribe/request", { home_link: "AylaPayouts", text: `A portrait by the sea #${i}`, idempotency_key: `console-e2e-${i}` })
    ).body.data.id as number;
    await post(creator.token, "/api/Subscribe/acceptRequest", { id });
    const task = await app.server.db.generationTask.create({
      data: {
        userId: creator.userId,
        mode: "text_to_image",
        engine: "local",
        status: "succeeded",
        cost: 1,
        input: {},
        outputKey: `media/${creator.userId}/d${i}.jpg`,
      },
    });
    await post(creator.token, "/api/Subscribe/deliverRequest", { id, task_id: task.id });
    ids.push({ id, fan });
  }
  await post(ids[1].fan.token, "/api/Subscribe/rateRequest", { id: ids[1].id, satisfied: 0 });
  await post(ids[1].fan.token, "/api/Subscribe/disputeRequest", { id: ids[1].id, reason: "The face is not hers" });
  disputeId = ids[1].id;
  payoutId = (await post(creator.token, "/api/Subscribe/requestPayout", { amount: 150, idempotency_key: "console-e2e-payout" })).body.data.id;
}

beforeAll(async () => {
  support = await newStaff(app.server, ["support"]);
  await seed();
}, 300_000);

describe("console: creator payouts and disputes", () => {
  it("support approves a payout with the transfer's reference, and refunds a disputed delivery", { timeout: 120_000 }, async () => {
    const page = await signInToConsole(app.browser, app.server.url, support);
    await page.goto(`${app.server.url}/console/payouts`);
    await page.waitForSelector('.RaDatagrid-table td:has-text("AylaPayouts")');
    await screenshot(page, "console-payouts-queue");
    await page.click(".RaDatagrid-table tbody tr >> nth=0 >> [data-action=payouts-approve]");
    await page.waitForSelector("[data-intro=payouts-approve]");
    expect(await page.innerText("[data-intro=payouts-approve]")).toContain("Pay 150 credits to AylaPayouts.");
    await page.fill('textarea[name="reference"]', "SEPA-2026-11-0042");
    await screenshot(page, "console-payouts-approve-dialog");
    await page.click("[data-submit=payouts-approve]");
    await expect.poll(async () => (await app.server.db.creatorPayout.findUniqueOrThrow({ where: { id: payoutId } })).status).toBe("approved");
    expect(await app.server.db.creatorPayout.findUniqueOrThrow({ where: { id: payoutId } })).toMatchObject({
      reference: "SEPA-2026-11-0042",
      decidedById: support.staffId,
    });
    expect((await app.server.db.user.findUniqueOrThrow({ where: { id: creator.userId } })).points).toBe(150);
    // the queue shows what is still waiting: nothing
    await page.waitForSelector(".RaEmpty-message, .RaList-main:not(:has(.RaDatagrid-table))");
    await page.goto(`${app.server.url}/console/payouts/${payoutId}/show`);
    await page.waitForSelector("[data-earnings]");
    expect(await page.innerText("[data-earnings]")).toContain("Paid out: 150");
    await screenshot(page, "console-payout-approved");

    await page.goto(`${app.server.url}/console/disputes`);
    await page.waitForSelector('.RaDatagrid-table td:has-text("The face is not hers")');
    await screenshot(page, "console-disputes");
    await page.click(".RaDatagrid-table tbody tr >> nth=0 >> [data-action=disputes-resolve] >> nth=0");
    await page.fill('textarea[name="reason"]', "The delivery shows someone else");
    await page.click("[data-submit=disputes-resolve]");
    await expect.poll(async () => (await app.server.db.customRequest.findUniqueOrThrow({ where: { id: disputeId } })).disputeStatus).toBe("refunded");
    expect(
      await app.server.db.auditLog.count({
        where: {
          OR: [
            { resource: "CreatorPayout", resourceId: String(payoutId) },
            { resource: "CustomRequest", resourceId: String(disputeId) },
          ],
        },
      }),
    ).toBe(2);
    // the creator kept 150 after the payout; the refund took the disputed 150 back
    expect((await app.server.db.user.findUniqueOrThrow({ where: { id: creator.userId } })).points).toBe(0);

    await page.goto(`${app.server.url}/console`);
    await page.waitForSelector('[data-chart="Custom requests per day"] .recharts-surface');
    await page.mouse.move(0, 0);
    await screenshot(page, "console-dashboard-creators");
    await page.close();
  });
});
