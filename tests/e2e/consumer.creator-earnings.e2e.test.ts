import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { photo } from "../fixtures/media.ts";
import { registeredUser, uploadImage } from "../training-utils.ts";
import { screenshot } from "./browser.ts";
import { appForThisFile, type AppServer } from "./app-per-file.ts";
import { signedInPhone } from "./consumer-app.ts";

const LANGUAGES = ["en", "ja", "ko", "ru"] as const;
type Who = { token: string; userId: number };

const overflows = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
/** A full-page shot from the top: taken scrolled, the sticky header would sit in the middle of the page. */
const shoot = async (page: Page, name: string) => {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
};

/** A creator taking requests at 150 credits, with two requests delivered to two fans; answers the creator and the fans. */
async function creatorWithDeliveries(server: AppServer, homeLink: string) {
  const post = (token: string, path: string, body: Record<string, unknown>) => server.http.post(path).set("token", token).send(body).expect(200);
  const creator = await registeredUser(server);
  const cover = await uploadImage(server, creator.token, await photo(600, 800));
  const model = await server.db.characterModel.create({
    data: { userId: creator.userId, name: `Ayla ${homeLink}`, homeLink, coverUploadId: cover, status: "success", cost: 5, triggerWord: "ayl" },
  });
  await post(creator.token, "/api/Subscribe/publishPage", { role_id: model.id, request_price: 150 });
  const fans: { fan: Who; id: number }[] = [];
  for (let i = 0; i < 2; i++) {
    const fan = await registeredUser(server, 150);
    const id = (
      await post(fan.token, "/api/Subscribe/request", {
        home_link: homeLink,
        text: `A portrait at golden hour #${i}`,
        idempotency_key: `earn-${homeLink}-${i}`,
      })
    ).body.data.id as number;
    await post(creator.token, "/api/Subscribe/acceptRequest", { id });
    const task = await server.db.generationTask.create({
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
    fans.push({ fan, id });
  }
  return { creator, fans };
}

const phone = signedInPhone;

/** Issue 16: the creator sees earnings and asks for a payout; a fan disputes an unsatisfying delivery. */
describe("creator earnings and disputes in the browser", () => {
  const app = appForThisFile();

  it("a fan rates a delivery not satisfied and disputes it; the creator sees it in dispute and asks for a payout of the rest", async () => {
    const { creator, fans } = await creatorWithDeliveries(app.server, "AylaEarns");
    const fan = await phone(app.browser, fans[1].fan, "en");
    await fan.page.goto(`${app.server.url}/AylaEarns`);
    await fan.page.getByTestId("rate-unsatisfied").click();
    await fan.page.getByTestId("dispute-open").click();
    await fan.page.getByTestId("dispute-reason").fill("The face in the picture is not hers");
    await shoot(fan.page, "creator-dispute-form-360");
    await fan.page.getByTestId("dispute-send").click();
    await expect.poll(() => fan.page.getByTestId("dispute-status").innerText()).toBe("Dispute open: our team is reviewing it.");
    expect(await overflows(fan.page)).toBe(false);
    await shoot(fan.page, "creator-dispute-fan-360");
    await fan.context.close();

    const own = await phone(app.browser, creator, "en");
    await own.page.goto(`${app.server.url}/AylaEarns`);
    await own.page.getByTestId("creator-earnings").waitFor();
    expect(await own.page.getByTestId("creator-dispute-status").innerText()).toBe(
      "The fan disputed this delivery: its credits are not payable until our team decides.",
    );
    expect(await own.page.getByTestId("earnings-earned").innerText()).toContain("300 credits");
    expect(await own.page.getByTestId("earnings-in_dispute").innerText()).toContain("150 credits");
    expect(await own.page.getByTestId("earnings-payable").innerText()).toContain("150 credits");
    await own.page.getByTestId("payout-amount").fill("200");
    await own.page.getByTestId("payout-send").click();
    expect(await own.page.getByTestId("payout-status").innerText()).toBe("You can ask for at most your payable credits");
    await own.page.getByTestId("payout-amount").fill("150");
    await own.page.getByTestId("payout-send").click();
    await expect.poll(() => own.page.getByTestId("payout-status").innerText()).toBe("Payout of 150 credits requested. We will review it soon.");
    await expect.poll(() => own.page.getByTestId("payout-row").getAttribute("data-status")).toBe("requested");
    await expect.poll(() => own.page.getByTestId("earnings-payable").innerText()).toContain("0 credits");
    expect((await app.server.db.user.findUniqueOrThrow({ where: { id: creator.userId } })).points).toBe(150);
    expect(await overflows(own.page)).toBe(false);
    await shoot(own.page, "creator-earnings-en-360");
    await own.context.close();
  });

  for (const language of LANGUAGES.filter((l) => l !== "en")) {
    it(`${language}: the earnings panel and the payout form fit a phone`, async () => {
      const { creator } = await creatorWithDeliveries(app.server, `Earns${language}`);
      const own = await phone(app.browser, creator, language);
      await own.page.goto(`${app.server.url}/Earns${language}`);
      await own.page.getByTestId("creator-earnings").waitFor();
      await own.page.getByTestId("payout-amount").fill("120");
      await own.page.getByTestId("payout-send").click();
      await own.page.getByTestId("payout-status").waitFor();
      expect(await overflows(own.page)).toBe(false);
      await shoot(own.page, `creator-earnings-${language}-360`);
      await own.context.close();
    });
  }
});
