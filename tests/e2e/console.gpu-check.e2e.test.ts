import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_MODELS, startFakeComfy, type FakeComfy } from "../fixtures/fake-comfyui.ts";
import { startTestServer } from "../server-utils.ts";
import { staffMember, type StaffLogin } from "../staff-utils.ts";
import { launchBrowser, screenshot } from "./browser.ts";
import { ensureConsoleBuilt, signInToConsole } from "./console-build.ts";

/** Issue 34: the console's Engines page says, per server, what each workflow lacks and where to fetch it. */
const HIGH = "wan2.2_i2v_high_noise_14B_fp8_scaled.safetensors";
let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;
let lacking: FakeComfy;
let admin: StaffLogin;

beforeAll(async () => {
  await ensureConsoleBuilt();
  lacking = await startFakeComfy({ models: { ...ALL_MODELS, diffusion_models: ALL_MODELS.diffusion_models.filter((m) => m !== HIGH) } });
  server = await startTestServer({ COMFYUI_URLS: lacking.url }, undefined, { ownPublicUrl: true });
  browser = await launchBrowser();
  admin = await staffMember(server, ["admin"]);
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await lacking?.close();
});

describe("console GPU check in Chromium", () => {
  it("lists each workflow runnable or with its missing files and downloads", { timeout: 120_000 }, async () => {
    const page = await signInToConsole(browser, server.url, admin, 360);
    await page.goto(`${server.url}/console/engines`);
    const check = page.getByTestId("gpu-check");
    const wan = check.locator("[data-workflow='wan22-i2v-14b']");
    await wan.waitFor();
    expect(await wan.getAttribute("data-offered")).toBe("false");
    expect(await wan.innerText()).toContain(`models/diffusion_models/${HIGH}`);
    // the file is listed once for the server, with both workflows that load it (full and fast) and its download
    const file = check.getByTestId("gpu-downloads").locator(`[data-file='${HIGH}']`);
    expect(await file.count()).toBe(1);
    expect(await file.innerText()).toContain("wan22-i2v-14b, wan22-i2v-14b-fast");
    expect(await file.locator("a").getAttribute("href")).toBe(
      `https://huggingface.co/Comfy-Org/Wan_2.2_ComfyUI_Repackaged/resolve/main/split_files/diffusion_models/${HIGH}`,
    );
    expect(await check.getByTestId("gpu-downloads").innerText()).toMatch(/To download, each file once: 1 file/);
    expect(await check.locator("[data-workflow='sdxl-t2i']").getAttribute("data-offered")).toBe("true");
    // Reverie's LoRA node is there: the server can run a person's character model (decision 330)
    const characters = check.locator("[data-character-models]");
    expect(await characters.getAttribute("data-character-models")).toBe("true");
    expect(await characters.innerText()).toBe("Character models: ready");
    await screenshot(page, "console-gpu-check-360");
    await page.close();
  });
});
