import sharp from "sharp";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { loraSafetensors, tarOf } from "../../../../tests/fixtures/lora-files.ts";
import { face, mirrored } from "../../../../tests/training-utils.ts";
import { homeLinkProblem, HOME_LINK_MESSAGES } from "../../contract/home-link.ts";
import { captionFor, prepareDataset, squareAround } from "./dataset.ts";
import { dHash, hammingDistance, NEAR_DUPLICATE_BITS } from "./dhash.ts";
import { checkSafetensors, unwrapTar, WeightsError } from "./weights.ts";

describe("dHash", () => {
  it("keeps re-encodes, resizes and brightness changes close and tells different shots apart", async () => {
    const a5 = await face("stock-emotions-a-5");
    const h = await dHash(a5);
    const small = await sharp(a5).resize(200).jpeg({ quality: 40 }).toBuffer();
    const brighter = await sharp(a5).modulate({ brightness: 1.15 }).toBuffer();
    expect(hammingDistance(h, await dHash(small))).toBeLessThanOrEqual(NEAR_DUPLICATE_BITS);
    expect(hammingDistance(h, await dHash(brighter))).toBeLessThanOrEqual(NEAR_DUPLICATE_BITS);
    // a-7 is the same pose a moment later: a near-duplicate; a mirror image and another shot are not
    expect(hammingDistance(h, await dHash(await face("stock-emotions-a-7")))).toBeLessThanOrEqual(NEAR_DUPLICATE_BITS);
    expect(hammingDistance(h, await dHash(await mirrored("stock-emotions-a-5")))).toBeGreaterThan(NEAR_DUPLICATE_BITS);
    expect(hammingDistance(h, await dHash(await face("stock-emotions-a-2")))).toBeGreaterThan(NEAR_DUPLICATE_BITS);
    expect(hammingDistance(0n, (1n << 64n) - 1n)).toBe(64);
  });
});

describe("dataset preparation", () => {
  it("squares centre on the face, stay inside the image and fall back to the centre", () => {
    expect(squareAround(1000, 800, { x: 450, y: 300, width: 100, height: 120 })).toEqual({ left: 350, top: 210, side: 300 });
    expect(squareAround(1000, 800, { x: 0, y: 0, width: 100, height: 100 })).toEqual({ left: 0, top: 0, side: 250 });
    expect(squareAround(1000, 800, { x: 900, y: 700, width: 400, height: 400 })).toEqual({ left: 200, top: 0, side: 800 });
    expect(squareAround(1000, 800)).toEqual({ left: 100, top: 0, side: 800 });
  });

  it("drops near-duplicates, crops squares at the trainer's resolution, captions with the trigger word, zips with a manifest", async () => {
    const photos = [
      { uploadId: 11, image: await face("stock-emotions-a-5"), face: { x: 100, y: 120, width: 200, height: 220 } },
      { uploadId: 12, image: await face("stock-emotions-a-7") },
      { uploadId: 13, image: await face("stock-emotions-a-2") },
    ];
    const d = await prepareDataset(photos, { triggerWord: "rvqxz", resolution: 512, baseModel: "black-forest-labs/FLUX.1-dev" });
    expect(d.kept).toEqual([11, 13]);
    expect(d.dropped).toEqual([{ uploadId: 12, duplicateOf: 11 }]);
    const files = unzipSync(new Uint8Array(d.zip));
    expect(Object.keys(files).sort()).toEqual(["01.jpg", "01.txt", "02.jpg", "02.txt", "manifest.json"]);
    for (const img of ["01.jpg", "02.jpg"]) expect(await sharp(Buffer.from(files[img])).metadata()).toMatchObject({ width: 512, height: 512, format: "jpeg" });
    expect(Buffer.from(files["01.txt"]).toString()).toBe(captionFor("rvqxz"));
    const manifest = JSON.parse(Buffer.from(files["manifest.json"]).toString());
    expect(manifest).toMatchObject({
      trigger_word: "rvqxz",
      resolution: 512,
      images: [{ upload_id: 11 }, { upload_id: 13 }],
      dropped: [{ upload_id: 12, duplicate_of: 11, reason: "near_duplicate" }],
    });
  });
});

describe("weights checks", () => {
  it("accepts a LoRA safetensors file, also inside a tar", () => {
    const file = loraSafetensors();
    expect(checkSafetensors(file, 1e6)).toEqual({ tensors: 2, bytes: file.length });
    expect(
      unwrapTar(
        tarOf([
          { name: "output/config.yaml", data: Buffer.from("a: 1") },
          { name: "output/lora.safetensors", data: file },
        ]),
      ).equals(file),
    ).toBe(true);
  });

  it.each([
    ["empty", Buffer.alloc(0)],
    ["text", Buffer.from("not a model at all, just text")],
    ["a truncated file", loraSafetensors().subarray(0, 200)],
    ["extra bytes", Buffer.concat([loraSafetensors(), Buffer.alloc(10)])],
    [
      "no LoRA tensors",
      (() => {
        const f = loraSafetensors();
        const len = Number(f.readBigUInt64LE(0));
        const header = f.toString("utf8", 8, 8 + len).replaceAll("lora_", "base_");
        return Buffer.concat([f.subarray(0, 8), Buffer.from(header), f.subarray(8 + len)]);
      })(),
    ],
  ])("refuses %s", (_what, buf) => {
    expect(() => checkSafetensors(buf, 1e6)).toThrow(WeightsError);
  });

  it("refuses files over the size limit and tars without weights", () => {
    expect(() => checkSafetensors(loraSafetensors(), 100)).toThrow(/too large/);
    expect(() => unwrapTar(tarOf([{ name: "readme.txt", data: Buffer.from("hi") }]))).toThrow(/no .safetensors/);
  });
});

describe("home links (shared with creator pages)", () => {
  it.each([
    ["", HOME_LINK_MESSAGES.required],
    ["ab", HOME_LINK_MESSAGES.length],
    ["a".repeat(21), HOME_LINK_MESSAGES.length],
    ["-abc", HOME_LINK_MESSAGES.characters],
    ["my page", HOME_LINK_MESSAGES.characters],
    ["ÄÖÜ", HOME_LINK_MESSAGES.characters],
    ["CONSOLE", HOME_LINK_MESSAGES.reserved],
    ["abc", null],
    ["Anna_B-2", null],
    ["a".repeat(20), null],
  ])("%j -> %s", (value, message) => {
    expect(homeLinkProblem(value)).toBe(message);
  });
});
