import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mediaDir, photo, video } from "../../../../../tests/fixtures/media.ts";
import { ffmpeg, probe } from "../../../storage/media-tools.ts";
import { EngineError, type EngineJob } from "./engine.ts";
import { createLocalEngine } from "./local.engine.ts";
import { LOOKS, MOTIONS, outputSize } from "./local.filters.ts";

let media: Awaited<ReturnType<typeof mediaDir>>;
let image: string;
let clip: string;
const engine = createLocalEngine();

beforeAll(async () => {
  media = await mediaDir();
  image = path.join(media.dir, "in.jpg");
  await fs.writeFile(image, await photo(400, 300));
  clip = path.join(media.dir, "in.mp4");
  await fs.writeFile(clip, await video(media.dir, 2));
});
afterAll(() => media.cleanup());

async function render(name: string, job: Partial<EngineJob>) {
  const workDir = path.join(media.dir, name);
  await fs.mkdir(workDir);
  const id = await engine.submit({ mode: "image_to_video", workDir, params: {}, resolution: "480P", durationSec: 1, count: 1, seed: 1, key: name, ...job });
  return engine.result(id);
}

describe("local engine", () => {
  it("keeps the aspect with the short side at 480 or 720", () => {
    expect(outputSize("480P", 1600, 1200)).toEqual({ width: 640, height: 480 });
    expect(outputSize("720P", 1080, 1920)).toEqual({ width: 720, height: 1280 });
    expect(outputSize("480P", 1920, 1080)).toEqual({ width: 854, height: 480 });
  });

  it.each(MOTIONS)("renders the %s motion as H.264 of the requested length", async (motion) => {
    const r = await render(`motion-${motion}`, { image, params: { motion } });
    const p = await probe(r.main.path);
    expect(p.video).toMatchObject({ codec: "h264", width: 640, height: 480, pixFmt: "yuv420p" });
    expect(Math.abs(p.durationSec - 1)).toBeLessThanOrEqual(0.1);
  });

  it("sways a photo without ever showing the frame's edges, in landscape and portrait", async () => {
    for (const [w, h] of [
      [1200, 675],
      [675, 1200],
    ]) {
      const white = path.join(media.dir, `white-${w}.png`);
      await sharp({ create: { width: w, height: h, channels: 3, background: "#ffffff" } })
        .png()
        .toFile(white);
      const r = await render(`sway-${w}`, { image: white, params: { motion: "rotate" }, durationSec: 2 });
      // the sway peaks a quarter and three quarters of the way through
      for (const at of ["0.5", "1.5"]) {
        const png = path.join(media.dir, `sway-${w}-${at}.png`);
        await ffmpeg(["-ss", at, "-i", r.main.path, "-frames:v", "1", png]);
        const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
        const corners = [0, info.width - 1, (info.height - 1) * info.width, info.height * info.width - 1].map((i) => data[i]);
        expect(Math.min(...corners), `corners at ${at} s of ${w}x${h}`).toBeGreaterThan(200);
      }
    }
  });

  it.each(LOOKS)("applies the %s look to a video", async (look) => {
    const r = await render(`look-${look}`, { mode: "video_to_video", video: clip, params: { look } });
    const p = await probe(r.main.path);
    expect(p.video).toMatchObject({ codec: "h264", width: 640, height: 480 });
    expect(p.audio?.codec).toBe("aac");
  });

  it("draws the same picture for the same prompt and seed, another for another prompt", async () => {
    const a = await render("draft-a", { mode: "text_to_image", prompt: "a red fox in snow", seed: 7 });
    const b = await render("draft-b", { mode: "text_to_image", prompt: "a red fox in snow", seed: 7 });
    const c = await render("draft-c", { mode: "text_to_image", prompt: "a blue whale at night", seed: 7 });
    const raw = (f: string) => sharp(f).raw().toBuffer();
    expect((await raw(a.main.path)).equals(await raw(b.main.path))).toBe(true);
    expect((await raw(a.main.path)).equals(await raw(c.main.path))).toBe(false);
  });

  it("reports failure for an unreadable input and can cancel a render", async () => {
    const bad = path.join(media.dir, "bad.jpg");
    await fs.writeFile(bad, "not an image");
    // the engine's own error, saying what was wrong with the input: not any throw (a missing file, a bug) on the way
    const failed = render("bad", { image: bad });
    await expect(failed).rejects.toThrow(EngineError);
    await expect(failed).rejects.toThrow(/unsupported image format/);
    const workDir = path.join(media.dir, "cancel");
    await fs.mkdir(workDir);
    const id = await engine.submit({ mode: "image_to_video", workDir, image, params: {}, resolution: "720P", durationSec: 30, count: 1, seed: 3, key: "c" });
    await new Promise((r) => setTimeout(r, 300));
    await engine.cancel(id, "timed out after 5 s");
    expect((await engine.progress(id)).state).not.toBe("done");
    await expect(engine.result(id)).rejects.toThrow(/^timed out after 5 s$/);
  });
});
