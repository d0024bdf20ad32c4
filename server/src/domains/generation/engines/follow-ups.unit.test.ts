import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mediaToolPath } from "../../../storage/media-binaries.ts";
import { ffmpeg, probe } from "../../../storage/media-tools.ts";
import { joinClips, lastFrame } from "./follow-ups.ts";

/** An extension's media steps (decision 307): the clip's last frame, and the join that never encodes the clip again. */
let dir: string;
const clip = async (name: string, o: { size: string; rate: number; seconds: number; colour: string }) => {
  const file = path.join(dir, name);
  await ffmpeg([
    ...["-f", "lavfi", "-i", `color=c=${o.colour}:s=${o.size}:r=${o.rate}:d=${o.seconds}`],
    ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", file],
  ]);
  return file;
};
const packets = async (file: string) =>
  (
    await promisify(execFile)(mediaToolPath("ffprobe"), [
      ...["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=data_hash", "-show_data_hash", "MD5", "-of", "csv=p=0", file],
    ])
  ).stdout
    .trim()
    .split("\n");

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-follow-ups-"));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

describe("an extension's media steps", () => {
  it("takes the clip's very last frame, at the clip's size", async () => {
    const red = await clip("red.mp4", { size: "320x240", rate: 16, seconds: 1, colour: "red" });
    const blue = await clip("blue.mp4", { size: "320x240", rate: 16, seconds: 1, colour: "blue" });
    const { file: joined } = await joinClips(red, blue, await probe(blue), dir);
    const work = path.join(dir, "frame");
    await fs.mkdir(work);
    const { data, info } = await sharp(await lastFrame(joined, work))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([320, 240]);
    expect(data[2]).toBeGreaterThan(200);
    expect(data[0]).toBeLessThan(50);
  });

  it("a continuation of another size and rate is fitted to the clip; the clip's own packets stay as they were", async () => {
    const first = await clip("first.mp4", { size: "320x240", rate: 16, seconds: 2, colour: "green" });
    const second = await clip("second.mp4", { size: "400x300", rate: 24, seconds: 1, colour: "yellow" });
    const work = path.join(dir, "join");
    await fs.mkdir(work);
    const joined = await joinClips(first, second, await probe(second), work);
    const p = await probe(joined.file);
    expect([p.video?.width, p.video?.height, p.video?.rate]).toEqual([320, 240, "16/1"]);
    expect(p.durationSec).toBeCloseTo(3, 1);
    expect(joined.durationSec).toBeCloseTo(3, 1);
    const head = await packets(first);
    expect((await packets(joined.file)).slice(1, head.length)).toEqual(head.slice(1));
  });

  it("a free continuation's mark is laid over it at the clip's size, in the encode that fits it; the clip is copied", async () => {
    const first = await clip("plain.mp4", { size: "320x240", rate: 16, seconds: 1, colour: "gray" });
    const second = await clip("wider.mp4", { size: "400x300", rate: 24, seconds: 1, colour: "gray" });
    const work = path.join(dir, "marked");
    await fs.mkdir(work);
    const mark = path.join(work, "mark.png");
    await sharp({ create: { width: 40, height: 40, channels: 4, background: "#ff0000" } })
      .png()
      .toFile(mark);
    const joined = await joinClips(first, second, await probe(second), work, { file: mark, left: 270, top: 190 });
    const head = await packets(first);
    expect((await packets(joined.file)).slice(1, head.length)).toEqual(head.slice(1));
    const picture = path.join(work, "last.png");
    await ffmpeg(["-sseof", "-0.2", "-i", joined.file, "-frames:v", "1", picture]);
    const at = async (left: number, top: number) => (await sharp(picture).extract({ left, top, width: 1, height: 1 }).raw().toBuffer())[0];
    // red inside the mark's box of the 320x240 clip, gray outside it
    expect(await at(290, 210)).toBeGreaterThan(200);
    expect(await at(250, 210)).toBeLessThan(160);
  });
});
