import { beforeAll, describe, expect, it } from "vitest";
import { sheetRows, spreadsheet } from "../fixtures/spreadsheets.ts";
import { staffMember, type StaffLogin } from "../staff-utils.ts";
import { screenshot } from "./browser.ts";
import { signInToConsole } from "./console-build.ts";
import { consoleForThisFile } from "./console-per-file.ts";

/** Issue 35: the console names products and templates, never bare ids, and imports products from a sheet. */
const app = consoleForThisFile();
let admin: StaffLogin;

beforeAll(async () => {
  admin = await staffMember(app.server, ["admin"]);
}, 300_000);

describe("console names and product import in Chromium at 360 px", () => {
  it("previews a products sheet with its row errors, names templates on the engines and tasks pages, and flags one priced below cost", {
    timeout: 120_000,
  }, async () => {
    const page = await signInToConsole(app.browser, app.server.url, admin, 360);
    await page.goto(`${app.server.url}/console/product-imports`);
    await page.getByText("Import products").first().waitFor();
    const template = await (await fetch(`${app.server.url}/admin/api/imports/products/template`, { headers: { token: admin.token } })).arrayBuffer();
    const header = sheetRows(Buffer.from(template))[0] as string[];
    const price = header.includes("priceMinor") ? "priceMinor" : "prices.USD.priceMinor";
    const row = (p: Record<string, unknown>) => header.map((c) => p[c] ?? null);
    const file = spreadsheet([
      header,
      row({ code: "pack_100", name: "100 credits", "names.ru": "100 кредитов", credits: 100, [price]: 999 }),
      row({ code: "pack_200", name: "200 credits", credits: "many", [price]: 1799 }),
    ]);
    await page.locator("input[type=file]").setInputFiles({ name: "products.xlsx", mimeType: "application/octet-stream", buffer: file });
    await page.getByText("Rows ready: 1; with errors: 1.").waitFor();
    expect(await page.locator("[data-row='3']").innerText()).toContain("credits must be a whole number");
    await screenshot(page, "console-product-import-360");
    expect(await app.server.db.product.count({ where: { code: { in: ["pack_100", "pack_200"] } } })).toBe(0);

    const user = await app.server.db.user.create({ data: { loginType: "visitor", role: "visitor" } });
    const tpl = await app.server.db.template.create({
      data: {
        name: "Soft zoom",
        names: { ru: "Плавный зум" },
        category: "Creative",
        suitFor: "image",
        mode: "text_to_image",
        engineParams: {},
        creditPrice: 1,
      },
    });
    const task = await app.server.db.generationTask.create({
      data: { userId: user.id, mode: "text_to_image", templateId: tpl.id, engine: "local", status: "succeeded", cost: 1, input: {} },
    });
    await app.server.db.gpuRun.create({
      // an hour of GPU for one credit: priced far below its cost (issue 45)
      data: { taskId: task.id, attempt: 1, templateId: tpl.id, engine: "local", workflow: "sdxl-t2i", units: 1, gpuSeconds: 3600 },
    });
    await page.goto(`${app.server.url}/console/engines`);
    await page.getByTestId("gpu-costs").getByText("Soft zoom").waitFor();
    expect(await page.getByTestId("gpu-costs").locator("tr[data-loss='true']").innerText()).toContain("best");
    await screenshot(page, "console-engines-names-360");
    // the dashboard flags it where staff look first, linking to the template
    await page.goto(`${app.server.url}/console/`);
    const flag = page.getByTestId("priced-below-cost");
    await flag.getByText("Soft zoom").waitFor();
    expect(await flag.locator("[data-workflow='sdxl-t2i']").innerText()).toMatch(/sdxl-t2i \(best\) · — · cost [\d.]+ credits per unit, price 1/);
    expect(await flag.getByRole("link", { name: "Soft zoom" }).getAttribute("href")).toContain(`/templates/${tpl.id}`);
    await screenshot(page, "console-dashboard-below-cost-360");
    await page.goto(`${app.server.url}/console/generation-tasks`);
    await page.getByText("Soft zoom").first().waitFor();
    await screenshot(page, "console-tasks-names-360");
    await page.close();
  });
});
