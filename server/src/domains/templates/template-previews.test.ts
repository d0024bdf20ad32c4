import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, silentLog, type TestApp } from "../../../../tests/db-utils.ts";
import { probe } from "../../storage/media-tools.ts";
import { createTemplatePreviews } from "./template-previews.ts";

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await createTestApp();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-previews-"));
  await t.db.template.createMany({
    data: [
      { name: "Sway", category: "Portrait", suitFor: "image", mode: "image_to_video", engineParams: { motion: "rotate" }, creditPrice: 1, sortOrder: 1 },
      { name: "Noir", category: "Creative", suitFor: "video", mode: "video_to_video", engineParams: { look: "noir" }, creditPrice: 1, sortOrder: 2 },
      { name: "Aurora", category: "Creative", suitFor: "text", mode: "text_to_image", engineParams: { style: "aurora" }, creditPrice: 1, sortOrder: 3 },
    ],
  });
});
afterAll(async () => {
  await t.close();
  await fs.rm(dir, { recursive: true, force: true });
});

const previews = () => createTemplatePreviews({ db: t.db, storage: t.services.storage, engine: t.services.engines.require("local"), log: silentLog });

async function stored(key: string, name: string) {
  const file = path.join(dir, name);
  await fs.writeFile(file, await t.services.storage.get(key));
  return file;
}

describe("template previews", () => {
  it("renders each template once, even when two processes refresh at the same time", async () => {
    const made = await Promise.all([previews().refresh(), previews().refresh()]);
    expect(made[0] + made[1]).toBe(3);
    expect(await previews().refresh()).toBe(0);

    const rows = await t.db.template.findMany({ orderBy: { sortOrder: "asc" } });
    const sway = await probe(await stored(rows[0].previewKey!, "sway.mp4"));
    expect(sway.video?.codec).toBe("h264");
    expect(sway.durationSec).toBeCloseTo(3, 0);
    const noir = await probe(await stored(rows[1].previewKey!, "noir.mp4"));
    expect(noir.video?.codec).toBe("h264");
    expect((await sharp(await stored(rows[2].previewKey!, "aurora")).metadata()).width).toBeGreaterThan(0);

    const list = await t.http.get("/api/Index/getTemplatesList").expect(200);
    for (const item of list.body.data.list) expect(item.preview_url).toMatch(/^\/|^https?:\/\//);
  });

  it("renders again only the template whose parameters changed, and drops the old loop", async () => {
    const before = await t.db.template.findFirstOrThrow({ where: { name: "Sway" } });
    await t.db.template.update({ where: { id: before.id }, data: { engineParams: { motion: "zoom_in" } } });
    expect(await previews().refresh()).toBe(1);
    const after = await t.db.template.findFirstOrThrow({ where: { name: "Sway" } });
    expect(after.previewKey).not.toBe(before.previewKey);
    expect(await t.services.storage.exists(before.previewKey!)).toBe(false);
  });

  it("stopping cancels the render in progress and renders nothing more, instead of finishing the pass", async () => {
    const rows = await t.db.template.findMany({ orderBy: { sortOrder: "asc" } });
    for (const row of rows) await t.db.template.update({ where: { id: row.id }, data: { engineParams: { ...(row.engineParams as object), speed: 2 } } });
    const local = t.services.engines.require("local");
    const submitted: string[] = [];
    /** Renders that ended in an error: the cancelled one, not one left to finish. */
    const ended: string[] = [];
    let firstSubmit!: () => void;
    const rendering = new Promise<void>((resolve) => (firstSubmit = resolve));
    const engine: typeof local = {
      name: local.name,
      label: local.label,
      status: () => local.status(),
      submit: async (job) => {
        const id = await local.submit(job);
        submitted.push(id);
        firstSubmit();
        return id;
      },
      progress: (id) => local.progress(id),
      result: (id) =>
        local.result(id).catch((err: unknown) => {
          ended.push(id);
          throw err;
        }),
      cancel: (id, reason) => local.cancel(id, reason),
    };
    const stop = createTemplatePreviews({ db: t.db, storage: t.services.storage, engine, log: silentLog }).start(3600);
    await rendering;
    await stop();

    expect(submitted).toHaveLength(1);
    expect(ended).toEqual(submitted);
    const after = await t.db.template.findMany({ orderBy: { sortOrder: "asc" } });
    expect(after.map((row) => row.previewKey)).toEqual(rows.map((row) => row.previewKey));
  });
});
