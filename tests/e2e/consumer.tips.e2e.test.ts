import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { photo } from "../fixtures/media.ts";
import { registeredUser } from "../training-utils.ts";
import { screenshot } from "./browser.ts";
import { appForThisFile, type AppServer } from "./app-per-file.ts";
import { localeText, signedInPhone } from "./consumer-app.ts";

type Who = { token: string; userId: number };
const overflows = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);

/** A creator's page (made without training) with one public picture in its library. */
async function creatorWithItem(server: AppServer, homeLink: string): Promise<Who> {
  const creator = await registeredUser(server);
  await server.http.post("/api/Subscribe/createPage").set("token", creator.token).send({ home_link: homeLink, title: "Ayla Rose" }).expect(200);
  const key = `media/${creator.userId}/tip-item.jpg`;
  await server.services.storage.put(key, await photo(600, 800), "image/jpeg");
  const task = await server.db.generationTask.create({
    data: { userId: creator.userId, mode: "text_to_image", engine: "local", status: "succeeded", cost: 1, input: {}, outputKey: key },
  });
  await server.http.post("/api/Subscribe/publishItem").set("token", creator.token).send({ task_id: task.id, visibility: "public" }).expect(200);
  return creator;
}

const phone = signedInPhone;

/** Issue 32 item 5: a fan tips from the page and from a library item; the creator sees the tips with their messages. */
describe("tips in the browser", () => {
  const app = appForThisFile();

  for (const language of ["en", "ru"] as const) {
    it(`a fan tips a preset from the page with a message, confirms, and sees it sent (${language})`, async () => {
      const link = `AylaTips${language}`;
      const creator = await creatorWithItem(app.server, link);
      const fan = await registeredUser(app.server, 100);
      const { context, page } = await phone(app.browser, fan, language);
      await page.goto(`${app.server.url}/${link}`);
      await page.getByTestId("creator-tip").click();
      await expect.poll(() => page.getByTestId("tip-preset").count()).toBe(4);
      await page.getByTestId("tip-preset").nth(1).click();
      await page.getByTestId("tip-message").fill(language === "en" ? "Love the golden hour series" : "Очень красивая серия");
      await screenshot(page, `tip-dialog-choose-${language}-360`);
      expect(await overflows(page)).toBe(false);
      await page.getByTestId("tip-next").click();
      await page.getByTestId("spend-confirm").waitFor();
      await screenshot(page, `tip-dialog-confirm-${language}-360`);
      await page.getByTestId("spend-pay").click();
      await page.getByTestId("tip-sent").waitFor();
      await screenshot(page, `tip-dialog-sent-${language}-360`);
      if (language === "en") expect(await page.getByTestId("tip-sent").innerText()).toBe("Thank you! Ayla Rose received your tip of 50 credits.");
      expect((await app.server.db.user.findUniqueOrThrow({ where: { id: fan.userId } })).points).toBe(50);
      await page.getByTestId("tip-back").click();

      // from the library item: more than the balance holds opens the buy dialog, nothing is charged
      await page.getByTestId("library-tip").click();
      await page.getByTestId("tip-amount").fill("80");
      await page.getByTestId("tip-next").click();
      await page.getByTestId("spend-pay").click();
      await page.getByTestId("buy-credits").waitFor();
      expect(await page.getByTestId("tip-dialog").count()).toBe(0);
      expect(await page.getByTestId("spend-confirm").count()).toBe(0);
      await screenshot(page, `tip-short-buy-${language}-360`);
      expect((await app.server.db.user.findUniqueOrThrow({ where: { id: fan.userId } })).points).toBe(50);
      // the fan's account lists the tip sent, to whom
      await page.goto(`${app.server.url}/account#tips`);
      await page.getByTestId("tips-fan").waitFor();
      await page.getByTestId("tips-fan").scrollIntoViewIfNeeded();
      await screenshot(page, `tips-sent-account-${language}-360`);
      if (language === "en") expect(await page.getByTestId("tips-fan").innerText()).toContain("50 credits to Ayla Rose");
      expect(await overflows(page)).toBe(false);
      await context.close();

      const own = await phone(app.browser, creator, language);
      await own.page.goto(`${app.server.url}/${link}`);
      await own.page.getByTestId("tip-row").first().waitFor();
      await own.page.getByTestId("creator-tips").scrollIntoViewIfNeeded();
      await screenshot(own.page, `tips-received-${language}-360`);
      expect(await own.page.getByTestId("creator-tips").innerText()).toContain(language === "en" ? "Love the golden hour series" : "Очень красивая серия");
      expect(await overflows(own.page)).toBe(false);
      await own.context.close();
    });
  }

  for (const language of ["en", "ja", "ko", "ru"] as const) {
    it(`every spend on a creator asks the same confirmation, a membership saying it renews, when and for how much (${language})`, async () => {
      // issue 46 item 14: a join and a request charged on one tap while a tip asked first
      const link = `AylaSpend${language}`;
      const creator = await creatorWithItem(app.server, link);
      await app.server.http.post("/api/Subscribe/updatePage").set("token", creator.token).send({ membership_price: 10, request_price: 7 }).expect(200);
      const fan = await registeredUser(app.server, 100);
      const points = async () => (await app.server.db.user.findUniqueOrThrow({ where: { id: fan.userId } })).points;
      const { context, page } = await phone(app.browser, fan, language);
      await page.goto(`${app.server.url}/${link}`);

      await page.getByTestId("membership-join").click();
      const confirm = page.getByTestId("spend-confirm");
      await confirm.waitFor();
      expect(await points()).toBe(100);
      expect(await page.getByTestId("spend-what").innerText()).toBe(localeText(language, "creators.spend.join").replace("{{name}}", "Ayla Rose"));
      const next = new Intl.DateTimeFormat(language, { dateStyle: "medium" }).format(new Date(Date.now() + 30 * 86_400_000));
      const renews = localeText(language, "creators.spend.renews", 10).replace("{{days}}", "30").replace("{{date}}", next);
      expect(await page.getByTestId("spend-renews").innerText()).toBe(renews);
      expect(await page.getByTestId("spend-balance").innerText()).toBe(
        localeText(language, "creators.spend.balance").replace("{{before}}", "100").replace("{{after}}", "90"),
      );
      expect(await overflows(page)).toBe(false);
      await screenshot(page, `spend-confirm-join-${language}-360`);
      // back: nothing charged; again and pay: charged once
      await page.getByTestId("spend-back").click();
      await confirm.waitFor({ state: "detached" });
      expect(await points()).toBe(100);
      await page.getByTestId("membership-join").click();
      await page.getByTestId("spend-pay").click();
      await expect.poll(() => page.getByTestId("membership").getAttribute("data-status")).toBe("active");
      expect(await points()).toBe(90);

      // a tip and a custom request ask in the same dialog
      await page.getByTestId("creator-tip").click();
      await page.getByTestId("tip-next").click();
      await confirm.waitFor();
      expect(await page.getByTestId("spend-what").innerText()).toBe(localeText(language, "creators.spend.tip").replace("{{name}}", "Ayla Rose"));
      await page.getByTestId("spend-back").click();
      await page.getByTestId("tip-dialog").waitFor();
      await page.getByTestId("tip-back").click();
      await page.getByTestId("request-text").fill("A portrait at golden hour");
      await page.getByTestId("request-send").click();
      await confirm.waitFor();
      expect(await page.getByTestId("spend-now").innerText()).toBe(localeText(language, "creators.spend.held", 7));
      await screenshot(page, `spend-confirm-request-${language}-360`);
      expect(await points()).toBe(90);
      await page.getByTestId("spend-pay").click();
      await page.getByTestId("request-status").waitFor();
      expect(await points()).toBe(83);
      await context.close();
    }, 120_000);
  }
});
