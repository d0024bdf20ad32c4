import { beforeAll, describe, expect, it } from "vitest";
import { newStaff, type StaffCredentials } from "../staff-utils.ts";
import { registeredUser } from "../training-utils.ts";
import { screenshot } from "./browser.ts";
import { signInToConsole } from "./console-build.ts";
import { consoleForThisFile } from "./console-per-file.ts";

const app = consoleForThisFile();
let moderator: StaffCredentials;
let threadId: number;

beforeAll(async () => {
  moderator = await newStaff(app.server, ["moderator"]);
  const creator = await registeredUser(app.server);
  await app.server.http.post("/api/Subscribe/createPage").set("token", creator.token).send({ home_link: "AylaWrites", title: "Ayla Rose" }).expect(200);
  const fan = await registeredUser(app.server);
  const send = (token: string, body: object) =>
    app.server.http
      .post("/api/Messages/send")
      .set("token", token)
      .send({ idempotency_key: `k-${Math.random()}`, ...body })
      .expect(200);
  threadId = (await send(fan.token, { home_link: "AylaWrites", body: "Hi, love your page" })).body.data.thread_id;
  const spam = (await send(creator.token, { thread_id: threadId, body: "Pay me outside the site: wire transfer only" })).body.data.id;
  await app.server.http
    .post("/api/report")
    .set("token", fan.token)
    .send({ target_type: "message", target_id: spam, reason: "other", details: "scam" })
    .expect(200);
}, 300_000);

/** Issue 32 item 6: moderators read a thread holding a reported message, the reported one marked, at 360 px. */
describe("console: reported threads", () => {
  it("lists the reported thread and shows its messages", { timeout: 120_000 }, async () => {
    const page = await signInToConsole(app.browser, app.server.url, moderator);
    await page.setViewportSize({ width: 360, height: 780 });
    await page.goto(`${app.server.url}/console/reported-threads`);
    await page.waitForSelector('.RaDatagrid-table td:has-text("AylaWrites")');
    await screenshot(page, "console-reported-threads-360");
    await page.goto(`${app.server.url}/console/reported-threads/${threadId}/show`);
    await page.waitForSelector("[data-testid=reported-thread-lines]");
    expect(await page.locator('[data-reported="1"]').innerText()).toContain("Pay me outside the site");
    await screenshot(page, "console-reported-thread-360");
    await page.close();
  });
});
