import fs from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { sheetBomb, sheetRows, spreadsheet as sheet } from "../fixtures/spreadsheets.ts";
import { staffMember, type StaffLogin } from "../staff-utils.ts";
import { downloadedFile, screenshot } from "./browser.ts";
import { signInToConsole } from "./console-build.ts";
import { consoleForThisFile } from "./console-per-file.ts";

/** Support imports a spreadsheet of credit grants in the console (issue 35 item 8): template, preview, apply. */
const app = consoleForThisFile();
let support: StaffLogin;

beforeAll(async () => {
  support = await staffMember(app.server, ["support"]);
}, 300_000);

describe("console spreadsheet import in Chromium", () => {
  it("gives the template, previews a file's row errors without writing, then applies the fixed file once", { timeout: 120_000 }, async () => {
    const user = await app.server.db.user.create({ data: { loginType: "visitor", role: "visitor" } });
    const page = await signInToConsole(app.browser, app.server.url, support, 1400);
    await page.goto(`${app.server.url}/console/credit-grant-imports`);
    await page.getByText("Import credit grants").first().waitFor();

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download template" }).click()]);
    expect(sheetRows(await fs.readFile(await downloadedFile(download)))[0]).toEqual(["user_id", "credits", "reason"]);

    const input = page.locator("input[type=file]");
    const wrong = sheet([
      ["user_id", "credits", "reason"],
      [user.id, 25, "Outage apology"],
      [user.id, "many", "Typo"],
    ]);
    await input.setInputFiles({ name: "grants.xlsx", mimeType: "application/octet-stream", buffer: wrong });
    await page.getByText("Rows ready: 1; with errors: 1.").waitFor();
    expect(await page.locator("[data-row='3']").innerText()).toContain("The credits must be a number");
    expect(await page.getByRole("button", { name: "Apply" }).isDisabled()).toBe(true);
    await screenshot(page, "console-import-errors");

    const right = sheet([
      ["user_id", "credits", "reason"],
      [user.id, 25, "Outage apology"],
      [user.id, 5, "Typo fixed"],
    ]);
    await input.setInputFiles({ name: "grants.xlsx", mimeType: "application/octet-stream", buffer: right });
    await page.getByText("Rows ready: 2; with errors: 0.").waitFor();
    await page.getByRole("button", { name: "Apply" }).click();
    await page.getByText("Applied: 2 written, 0 already there").waitFor();
    expect((await app.server.db.user.findUniqueOrThrow({ where: { id: user.id } })).points).toBe(30);
    await page.close();

    const phone = await signInToConsole(app.browser, app.server.url, support, 360);
    await phone.goto(`${app.server.url}/console/credit-grant-imports`);
    await phone.locator("input[type=file]").setInputFiles({ name: "grants.xlsx", mimeType: "application/octet-stream", buffer: wrong });
    await phone.getByText("Rows ready: 1; with errors: 1.").waitFor();
    await screenshot(phone, "console-import-360");
    await phone.close();
  });

  it("says why a whole file is refused in the staff member's language: a zip bomb, too many rows (docs/decisions/371)", { timeout: 120_000 }, async () => {
    const page = await signInToConsole(app.browser, app.server.url, support, 1400);
    await page.goto(`${app.server.url}/console/credit-grant-imports`);
    const input = page.locator("input[type=file]");
    await input.setInputFiles({ name: "grants.xlsx", mimeType: "application/octet-stream", buffer: sheetBomb(150) });
    await page.getByText("The spreadsheet is too large once unpacked (over 16 MB): copy the list alone into a new file").waitFor();
    await page.close();

    const phone = await signInToConsole(app.browser, app.server.url, support, 360);
    await phone.evaluate(() => localStorage.setItem("RaStore.locale", JSON.stringify("ru")));
    await phone.goto(`${app.server.url}/console/credit-grant-imports`);
    await phone.getByText("Импорт начислений кредитов").first().waitFor();
    const many = [["user_id", "credits", "reason"], ...Array.from({ length: 1001 }, (_, i) => [i + 1, 1, "Gift"])];
    await phone.locator("input[type=file]").setInputFiles({ name: "grants.xlsx", mimeType: "application/octet-stream", buffer: sheet(many) });
    await phone.getByText("В таблице может быть не больше 1000 строк").waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    await screenshot(phone, "console-import-refused-ru-360");
    await phone.close();
  });
});
