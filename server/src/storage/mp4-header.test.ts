import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ffmpeg, probe } from "./media-tools.ts";
import { mp4Header } from "./mp4-header.ts";

/** Decision 314: the header read must say what ffprobe says of the same file, or nothing at all. */
describe("mp4Header", () => {
  let dir: string;
  const clip = async (name: string, args: string[]) => {
    const file = path.join(dir, name);
    await ffmpeg(["-y", "-f", "lavfi", "-i", "testsrc2=s=368x208:r=16", "-t", "1.25", ...args, file]);
    return file;
  };

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "mp4-header-"));
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  it.each([
    ["an H.264 clip with its header at the end", "end.mp4", ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]],
    ["an H.264 clip with its header first", "fast.mp4", ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-movflags", "+faststart"]],
  ])("reads %s as ffprobe does", async (_, name, args) => {
    const file = await clip(name, args as string[]);
    const [mine, theirs] = await Promise.all([mp4Header(file), probe(file)]);
    expect(mine).toEqual({
      durationSec: expect.closeTo(theirs.durationSec, 2),
      formatName: theirs.formatName,
      video: { codec: "h264", width: 368, height: 208, fps: expect.closeTo(theirs.video!.fps!, 6) },
    });
    expect(mine?.video?.fps).toBeCloseTo(16, 6);
  });

  it("reads a clip with sound, and its audio codec", async () => {
    const file = path.join(dir, "sound.mp4");
    await ffmpeg([
      "-y",
      "-f",
      "lavfi",
      "-i",
      "testsrc2=s=320x240:r=24",
      "-f",
      "lavfi",
      "-i",
      "sine=frequency=440",
      "-t",
      "2",
      "-c:v",
      "libx264",
      "-preset",
      "ultrafast",
      "-pix_fmt",
      "yuv420p",
      "-c:a",
      "aac",
      "-shortest",
      file,
    ]);
    const [mine, theirs] = await Promise.all([mp4Header(file), probe(file)]);
    expect(mine?.audio).toEqual({ codec: "aac" });
    expect(mine?.video).toEqual({ codec: "h264", width: 320, height: 240, fps: expect.closeTo(24, 6) });
    expect(mine?.durationSec).toBeCloseTo(theirs.durationSec, 2);
  });

  it("says nothing of a fragmented MP4, a WebM, a picture or a cut-off file, so ffprobe is asked", async () => {
    const fragmented = await clip("frag.mp4", ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-movflags", "frag_keyframe+empty_moov"]);
    const webm = await clip("clip.webm", ["-c:v", "libvpx-vp9", "-deadline", "realtime"]);
    const png = path.join(dir, "frame.png");
    await ffmpeg(["-y", "-f", "lavfi", "-i", "testsrc2=s=64x64", "-frames:v", "1", png]);
    const whole = await fs.readFile(await clip("whole.mp4", ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-movflags", "+faststart"]));
    const cut = path.join(dir, "cut.mp4");
    await fs.writeFile(cut, whole.subarray(0, 200));
    for (const file of [fragmented, webm, png, cut]) expect(await mp4Header(file), file).toBeNull();
  });
});
