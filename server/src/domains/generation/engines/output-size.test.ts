import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mediaDir, photo, video } from "../../../../../tests/fixtures/media.ts";
import { imageBatchBody, picVideoBody, textPicBody } from "../generation.schema.ts";
import { outputSizeFor } from "./output-size.ts";
import { loadWorkflows } from "./workflows.ts";

/** Issue 34, defect 5: outputs follow the source's shape unless the person chose one. */
const byName = Object.fromEntries(loadWorkflows().map((w) => [w.name, w.binding]));
let media: Awaited<ReturnType<typeof mediaDir>>;
let clip: string;
let picture: string;

beforeAll(async () => {
  media = await mediaDir();
  clip = path.join(media.dir, "small-4x3.mp4");
  await fs.writeFile(clip, await video(media.dir, 1, { width: 160, height: 120, audio: false }));
  picture = path.join(media.dir, "photo-4x3.jpg");
  await fs.writeFile(picture, await photo(800, 600));
});
afterAll(() => media.cleanup());

describe("output size", () => {
  it("video to video keeps a 4:3 source 4:3 (was square)", async () => {
    expect(await outputSizeFor(byName["sdxl-v2v"], { resolution: "480P", video: clip })).toEqual({ width: 640, height: 480 });
    expect(await outputSizeFor(byName["sdxl-v2v"], { resolution: "720P", video: clip })).toEqual({ width: 960, height: 720 });
  });

  it("image to image keeps the photo's shape at the model's size", async () => {
    expect(await outputSizeFor(byName["sdxl-i2i"], { resolution: "480P", image: picture })).toEqual({ width: 1152, height: 896 });
  });

  it("the aspect the person chose wins over the source's", async () => {
    expect(await outputSizeFor(byName["sdxl-v2v"], { resolution: "480P", video: clip, aspect: "9:16" })).toEqual({ width: 480, height: 848 });
    expect(await outputSizeFor(byName["sdxl-i2i"], { resolution: "480P", image: picture, aspect: "1:1" })).toEqual({ width: 1024, height: 1024 });
  });

  it("a text to image without a source stays square", async () => {
    expect(await outputSizeFor(byName["sdxl-t2i"], { resolution: "480P" })).toEqual({ width: 1024, height: 1024 });
  });

  it("requests that name no aspect leave it unset, so the source decides (image requests defaulted to 1:1)", () => {
    expect(textPicBody.parse({ image_id: 3 }).aspect).toBeUndefined();
    expect(imageBatchBody.parse({ image_id: 3 }).aspect).toBeUndefined();
    expect(picVideoBody.parse({ video_id: 3 }).aspect).toBeUndefined();
    expect(textPicBody.parse({ image_id: 3, aspect: "16:9" }).aspect).toBe("16:9");
  });
});
