import fs from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchBrowser } from "./browser.ts";
import { ensureConsumerBuild, newAppContext, pageShot } from "./consumer-app.ts";
import { audio, bytesFile, mediaDir, photo, video } from "./consumer-media.ts";
import { startTestServer } from "../server-utils.ts";

let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let dir: string;

beforeAll(async () => {
  await ensureConsumerBuild();
  [server, browser, dir] = await Promise.all([startTestServer(), launchBrowser(), mediaDir()]);
  context = await newAppContext(browser, { adult: true });
  page = await context.newPage();
  await page.goto(`${server.url}/home`);
  await page.getByTestId("try-guest").click();
  await page.waitForURL(/\/creationStudio$/);
}, 180_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

async function expectError(text: string) {
  const alert = page.getByTestId("upload-error");
  await alert.waitFor();
  expect(await alert.innerText()).toBe(text);
}

describe("consumer app: upload rules are checked before anything is sent", () => {
  it("photos: the consent box comes first; wrong type, over 10 MB and undecodable files get their messages", async () => {
    // before the consent box, a tap on "Choose a photo" explains what is missing instead of opening the picker
    await page.getByTestId("photo-choose").click();
    await page.getByTestId("consent-needed").waitFor();
    await page.getByTestId("consent").check();
    const uploads: string[] = [];
    page.on("request", (r) => r.url().includes("/api/ImageUpload/") && uploads.push(r.url()));

    await page.getByTestId("photo-input").setInputFiles(await bytesFile(dir, "notes.txt", 200));
    await expectError("Incorrect image format, please upload png, jpg, jpeg, webp, bmp format!");

    // 11 MB that starts like a JPEG
    await page.getByTestId("photo-input").setInputFiles(await bytesFile(dir, "huge.jpg", 11 * 1024 * 1024, Buffer.from([0xff, 0xd8, 0xff, 0xe0])));
    await expectError("The image size of the uploaded image cannot exceed 10MB!");

    // named like a PNG, but not an image at all
    await page.getByTestId("photo-input").setInputFiles(await bytesFile(dir, "fake.png", 5000));
    await expectError("Image format incorrect");
    await pageShot(page, "consumer-upload-error");
    expect(uploads).toEqual([]);
  });

  it("the cropper opens for a real photo", async () => {
    await page.getByTestId("photo-input").setInputFiles(await photo(dir));
    await page.getByTestId("cropper").waitFor();
    await page.getByTestId("aspect-square").click();
    await pageShot(page, "consumer-cropper");
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.getByTestId("cropper").waitFor({ state: "detached" });
  });

  it("videos: shorter than 4 s and longer than 30 s are refused by their length", async () => {
    await page.getByTestId("mode-video_to_video").click();
    await page.getByTestId("video-uploader").waitFor();
    await page.getByTestId("video-input").setInputFiles(await video(dir, 3));
    await expectError("The video must be at least 4 seconds long");
    await page.getByTestId("video-input").setInputFiles(await video(dir, 31));
    await expectError("Video duration exceeds limit");
    // a file the browser's decoder cannot read (issue 11 item 15: 'Video parsing failed'; the server's content check says 'Cannot parse video file')
    await page.getByTestId("video-input").setInputFiles(await bytesFile(dir, "broken.webm", 4000));
    await expectError("Video parsing failed");
    await page.getByTestId("video-input").setInputFiles(await bytesFile(dir, "notes.txt", 4000));
    await expectError("Cannot parse video file");
  });

  it("audio: longer than 5 minutes is refused; a good file gets the 4-30 s trimming timeline", async () => {
    await page.getByTestId("mode-audio_overlay").click();
    await page.getByTestId("audio-uploader").waitFor();
    await page.getByTestId("audio-input").setInputFiles(await audio(dir, 6 * 60));
    await expectError("The audio cannot be longer than 5 minutes");
    await page.getByTestId("audio-input").setInputFiles(await audio(dir, 45));
    await page.getByTestId("trim-slider").waitFor();
    // the selection starts at the 30 s maximum
    expect(await page.getByTestId("trim-length").innerText()).toBe("30.0 s selected");
    const end = page.getByRole("slider", { name: "End" });
    await end.focus();
    for (let i = 0; i < 300; i++) await page.keyboard.press("ArrowLeft");
    // the end thumb cannot make the selection shorter than 4 s
    expect(await page.getByTestId("trim-length").innerText()).toBe("4.0 s selected");
    await pageShot(page, "consumer-audio-trim");
  });
});
