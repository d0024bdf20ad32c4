import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchMedia, visitor } from "../../../../tests/db-utils.ts";
import { mediaDir, photo } from "../../../../tests/fixtures/media.ts";
import { GENERATION_TEST_ENV, grant, startWorkerFor, waitForTask } from "../../../../tests/generation-utils.ts";
import { difference } from "../../../../tests/media-compare.ts";
import { startTestServer } from "../../../../tests/server-utils.ts";
import { staffMember, type StaffLogin } from "../../../../tests/staff-utils.ts";
import { PROJECT_DIR } from "../../paths.ts";
import type { GenerationTask } from "../../db/generated/client.ts";
import { ffmpeg, probe } from "../../storage/media-tools.ts";
import { taskChargeKey } from "./generation.task.ts";
import { placeMark } from "./generation.watermark.ts";

let s: Awaited<ReturnType<typeof startTestServer>>;
let worker: { stop(): Promise<void> };
let marketer: StaffLogin;
let media: Awaited<ReturnType<typeof mediaDir>>;

beforeAll(async () => {
  s = await startTestServer(GENERATION_TEST_ENV);
  worker = await startWorkerFor(s);
  marketer = await staffMember(s, ["marketer"]);
  media = await mediaDir();
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await s?.stop();
  await media?.cleanup();
});

type Payer = "gift" | "bought" | "free generation";

/** A guest whose credits came as a gift, were bought in an order (the ledger's `purchase` entry), or a free generation. */
async function person(payer: Payer) {
  const u = await visitor(s);
  if (payer === "free generation") await s.db.user.update({ where: { id: u.userId }, data: { freeGenerations: 1 } });
  else if (payer === "gift") await grant(s, u.userId, 100);
  else await s.services.credits.grant({ userId: u.userId, amount: 100, reason: "purchase", reference: "order:T", idempotencyKey: `test-order:${u.userId}` });
  return u;
}

/** Renders on the local engine through the API and the worker; answers the main file and the poster. */
async function render(payer: Payer, call: string, body: object): Promise<{ main: string; poster: string; paidWith: string }> {
  const u = await person(payer);
  let input = body;
  if (call === "picVideoSubmit") {
    const up = await s.http
      .post("/api/ImageUpload/upload")
      .set("token", u.token)
      .attach("file", await photo(400, 300), "p.jpg")
      .field("consent", "1");
    input = { ...body, image_id: up.body.data.id };
  }
  const res = await s.http.post(`/api/Generation/${call}`).set("token", u.token).send(input).expect(200);
  expect((await waitForTask(s, res.body.data.id, 60_000)).status).toBe("succeeded");
  const d = (await s.http.get(`/api/Generation/picVideoSubmitDetails?id=${res.body.data.id}`).set("token", u.token).expect(200)).body.data;
  const save = async (url: string, name: string) => {
    const file = path.join(media.dir, `${res.body.data.id}-${name}`);
    await fs.writeFile(file, (await fetchMedia(s, url)).body);
    return file;
  };
  const main = await save(d.video_url ?? d.image_urls[0], d.video_url ? "main.mp4" : "main.jpg");
  return { main, poster: await save(d.poster_url, "poster.jpg"), paidWith: res.body.data.paid_with };
}

const setWatermark = (watermark: boolean) =>
  s.http.put("/admin/api/site-settings/brand").set("token", marketer.token).send({ value: { watermark } }).expect(200);

/** The default mark is square: where it lands on a picture of this size with no face. */
const corner = async (file: string) => {
  const m = await sharp(file).metadata();
  return placeMark(m.width!, m.height!, 1, []);
};

/** A frame of a video as PNG. */
async function frame(video: string, at: string): Promise<string> {
  const out = `${video}-${at}.png`;
  await ffmpeg(["-ss", at, "-i", video, "-frames:v", "1", out]);
  return out;
}

describe("the watermark on free output (issue 33 item 7)", () => {
  it("marks gift-paid and free-generation images in the corner, leaves bought output and output with the setting off unmarked", async () => {
    const body = { prompt: "a lighthouse on a cliff", seed: 11, aspect: "1:1" };
    const gift = await render("gift", "textPicSubmit", body);
    const freeGen = await render("free generation", "textPicSubmit", body);
    expect(freeGen.paidWith).toBe("free");
    const bought = await render("bought", "textPicSubmit", body);
    await setWatermark(false);
    const off = await render("gift", "textPicSubmit", body);
    await setWatermark(true);

    const box = await corner(off.main);
    // bought output and output with the setting off are the engine's own picture, pixel for pixel
    expect(await difference(bought.main, off.main, box, "inside")).toBe(0);
    expect(await difference(bought.main, off.main, box, "outside")).toBe(0);
    for (const marked of [gift, freeGen]) {
      expect(await difference(marked.main, off.main, box, "inside")).toBeGreaterThan(10);
      // elsewhere only the JPEG re-encode differs
      expect(await difference(marked.main, off.main, box, "outside")).toBeLessThan(1.5);
      // the poster (previews, the gallery) is marked too
      expect(await difference(marked.poster, off.poster, await corner(off.poster), "inside")).toBeGreaterThan(10);
    }
  }, 120_000);

  it("marks every frame of a free video in one H.264 pass (sound and length kept), never a bought one", async () => {
    const body = { resolution: "480P", duration: 2 };
    const gift = await render("gift", "picVideoSubmit", body);
    const bought = await render("bought", "picVideoSubmit", body);
    const p = await probe(gift.main);
    expect(p.video).toMatchObject({ codec: "h264", width: 640, height: 480, pixFmt: "yuv420p" });
    expect(Math.abs(p.durationSec - 2)).toBeLessThanOrEqual(0.1);
    expect(p.audio).toBeUndefined();
    for (const at of ["0.2", "1.5"]) {
      const [marked, clean] = await Promise.all([frame(gift.main, at), frame(bought.main, at)]);
      const box = await corner(clean);
      expect(await difference(marked, clean, box, "inside"), `frame at ${at} s`).toBeGreaterThan(10);
      expect(await difference(marked, clean, box, "outside"), `frame at ${at} s`).toBeLessThan(2);
    }
    expect(await difference(gift.poster, bought.poster, await corner(bought.poster), "inside")).toBeGreaterThan(10);
  }, 120_000);

  it("keeps clear of a face: the mark goes to the corner farthest from it", async () => {
    // a face (180 px, found at 157,66 in the test photo) set in the bottom-right of a plain picture, its centre at
    // (900, 600): inside the mark's usual place
    const face = await sharp(path.join(PROJECT_DIR, "tests/fixtures/faces/person-lexi.jpg"))
      .extract({ left: 147, top: 56, width: 200, height: 200 })
      .toBuffer();
    const plain = { create: { width: 1000, height: 700, channels: 3 as const, background: "#8899aa" } };
    const withFace = path.join(media.dir, "face.png");
    await sharp(plain)
      .composite([{ input: face, left: 800, top: 500 }])
      .png()
      .toFile(withFace);
    const usual = placeMark(1000, 700, 1, []);
    expect(usual.corner).toBe("bottom-right");
    expect(900 >= usual.left && 900 < usual.left + usual.width && 600 >= usual.top && 600 < usual.top + usual.height).toBe(true);
    const task = { id: 0, paidWith: "free", cost: 0 } as GenerationTask;
    const file = { path: withFace, mime: "image/png" };
    const r = await s.services.generation.watermark(task, { main: file, extra: [], poster: file, width: 1000, height: 700 });
    const topLeft = placeMark(1000, 700, 1, [{ x: 0.8, y: 0.8, width: 0.1, height: 0.1 }]);
    expect(topLeft.corner).toBe("top-left");
    expect(await difference(r.main.path, withFace, usual, "inside")).toBe(0);
    expect(await difference(r.main.path, withFace, topLeft, "inside")).toBeGreaterThan(10);
  }, 60_000);

  it("draws the operator's logo when one is set, in its own proportions", async () => {
    const logo = await sharp({ create: { width: 300, height: 100, channels: 3, background: "#ff0000" } })
      .png()
      .toBuffer();
    await s.http.post("/admin/api/site-settings/brand/logo").set("token", marketer.token).attach("file", logo, "logo.png").expect(200);
    const plainFile = path.join(media.dir, "plain.png");
    await sharp({ create: { width: 1000, height: 700, channels: 3, background: "#8899aa" } })
      .png()
      .toFile(plainFile);
    const file = { path: plainFile, mime: "image/png" };
    const task = { id: 0, paidWith: "free", cost: 0 } as GenerationTask;
    const r = await s.services.generation.watermark(task, { main: file, extra: [], poster: file, width: 1000, height: 700 });
    const at = placeMark(1000, 700, 3, []);
    const { data } = await sharp(r.main.path)
      .extract({ left: at.left + Math.floor(at.width / 2), top: at.top + Math.floor(at.height / 2), width: 1, height: 1 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    // red at 70% over the grey-blue picture
    expect(data[0]).toBeGreaterThan(200);
    expect(data[1]).toBeLessThan(80);
    expect(await difference(r.main.path, plainFile, { ...at, top: at.top - at.height }, "inside")).toBe(0);
    // a logo file gone from storage fails no render: the product's own (square) mark stands in
    const stored = (await s.db.siteSetting.findUniqueOrThrow({ where: { key: "brand" } })).value as { logo: string };
    await s.services.storage.delete(stored.logo);
    const fallback = await s.services.generation.watermark(task, { main: file, extra: [], poster: file, width: 1000, height: 700 });
    const square = placeMark(1000, 700, 1, []);
    // the square's upper part, where the wide red logo never reaches
    expect(await difference(fallback.main.path, plainFile, { ...square, height: at.top - square.top }, "inside")).toBeGreaterThan(10);
    // a save stores the whole brand: this one puts the default look (no logo) back for the tests after it
    await setWatermark(true);
  }, 60_000);

  it("counts a charge as paid only when credits were bought before it", async () => {
    const u = await person("gift");
    const res = await s.http.post("/api/Generation/textPicSubmit").set("token", u.token).send({ prompt: "before the order" }).expect(200);
    await s.services.credits.grant({ userId: u.userId, amount: 100, reason: "purchase", reference: "order:L", idempotencyKey: `late-order:${u.userId}` });
    expect(await s.services.credits.paidWithMoney(taskChargeKey(res.body.data.id))).toBe(false);
    const later = await s.http.post("/api/Generation/textPicSubmit").set("token", u.token).send({ prompt: "after the order" }).expect(200);
    expect(await s.services.credits.paidWithMoney(taskChargeKey(later.body.data.id))).toBe(true);
    // no charge at all (a free generation) is never paid
    expect(await s.services.credits.paidWithMoney(taskChargeKey(-1))).toBe(false);
    await waitForTask(s, later.body.data.id, 60_000);
  }, 60_000);
});
