import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeReplicate, type FakeReplicate } from "../fixtures/fake-replicate.ts";
import { startTestServer } from "../server-utils.ts";
import { staffMember, type StaffLogin } from "../staff-utils.ts";
import { balanceOf, personAPhotos, registeredUser, trainingSet } from "../training-utils.ts";
import { launchBrowser, screenshot } from "./browser.ts";
import { ensureConsoleBuilt, signInToConsole } from "./console-build.ts";

const TOKEN = "r8_console_token";
const SECRET = `whsec_${Buffer.from("console-training-signing-key-00").toString("base64")}`;
let fake: FakeReplicate;
let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;
let mod: StaffLogin;
let user: { token: string; userId: number };
const held: number[] = [];

beforeAll(async () => {
  await ensureConsoleBuilt();
  fake = await startFakeReplicate({ token: TOKEN, webhookSecret: SECRET });
  // default TRAINING_REVIEW_AGE (25): the fixture person looks 22-24, so these sets wait in the review queue
  server = await startTestServer(
    {
      TRAINER: "replicate",
      REPLICATE_API_TOKEN: TOKEN,
      REPLICATE_API_URL: fake.url,
      REPLICATE_TRAINER: "ostris/flux-dev-lora-trainer:4ffd32160efd92e956d39c5338a9b8fbafca58e03f791f6d8011f3e20e8ea6fa",
      REPLICATE_DESTINATION: "reverie/character-models",
      REPLICATE_WEBHOOK_SECRET: SECRET,
      TRAINING_POLL_SECONDS: "3600",
    },
    undefined,
    { ownPublicUrl: true },
  );
  browser = await launchBrowser();
  mod = await staffMember(server, ["moderator"]);
  user = await registeredUser(server, 50);
  const set = await trainingSet(server, user.token, await personAPhotos());
  for (const link of ["held-one", "held-two"]) {
    const res = await server.http
      .post("/api/Training/submit")
      .set("token", user.token)
      .send({ name: link, home_link: link, ...set })
      .expect(200);
    expect(res.body.data.status).toBe("review");
    held.push(res.body.data.id);
  }
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await fake?.stop();
});

const signIn = () => signInToConsole(browser, server.url, mod);

describe("console: training review queue", () => {
  it("a moderator sees the held sets with their consent record, rejects one with a reason (refunded) and approves the other (sent to the trainer)", {
    timeout: 120_000,
  }, async () => {
    const page = await signIn();
    await page.goto(`${server.url}/console/character-models?filter=${encodeURIComponent(JSON.stringify({ status: "review" }))}`);
    await page.waitForSelector('.RaDatagrid-table td:has-text("held-two")');
    await screenshot(page, "console-training-review-queue");

    await page.goto(`${server.url}/console/character-models/${held[0]}/show`);
    await page.getByTestId("consent-record").waitFor();
    await page.waitForFunction(() =>
      [...document.querySelectorAll("[data-testid=consent-record] img")].every(
        (i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0,
      ),
    );
    expect(await page.locator("[data-testid=consent-record] img").count()).toBe(12);
    await screenshot(page, "console-training-consent-record");
    const before = await balanceOf(server, user.userId);
    await page.click('[data-action="character-models-review"] >> nth=1');
    await page.fill('textarea[name="reason"]', "Looks under 18 in several photos");
    await page.click('[data-submit="character-models-review"]');
    await page.waitForSelector('.ra-field-status:has-text("failed")');
    expect(await balanceOf(server, user.userId)).toBe(before + 5);
    const audit = await server.db.auditLog.findFirstOrThrow({ where: { resource: "CharacterModel", resourceId: String(held[0]) } });
    expect(audit).toMatchObject({ action: "training_reject", staffId: mod.staffId, reason: "Looks under 18 in several photos" });

    await page.goto(`${server.url}/console/character-models/${held[1]}/show`);
    await page.getByTestId("consent-record").waitFor();
    await page.click('[data-action="character-models-review"] >> nth=0');
    await page.fill('textarea[name="reason"]', "Adult; matches the selfie");
    await page.click('[data-submit="character-models-review"]');
    await page.waitForSelector('.ra-field-status:has-text("doing")');
    expect(fake.trainings.size).toBe(1);
    await screenshot(page, "console-training-approved");

    // takedown from the list row
    // react-admin remembers the last filter (status = review): ask for every model
    await page.goto(`${server.url}/console/character-models?filter=${encodeURIComponent("{}")}`);
    const row = page.locator(".RaDatagrid-table tbody tr", { hasText: "held-two" });
    await row.locator('[data-action="character-models-takedown"]').click();
    await page.fill('textarea[name="reason"]', "Reported as someone else");
    await page.click('[data-submit="character-models-takedown"]');
    await row.locator('td:has-text("removed")').waitFor();
    await screenshot(page, "console-training-model-list");
    await page.close();
  });
});
