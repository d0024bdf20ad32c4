import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, testConfig, visitor, type TestApp } from "../../../../../tests/db-utils.ts";
import { photo } from "../../../../../tests/fixtures/media.ts";
import { GENERATION_TEST_ENV, grant } from "../../../../../tests/generation-utils.ts";
import { createEngines } from "./registry.ts";

/** Issue 11 item 1: an engine that cannot run is refused with 503 before anything is charged. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ...GENERATION_TEST_ENV, FFMPEG_PATH: "/nonexistent/bin/ffmpeg" });
}, 60_000);
afterAll(() => t?.close());

describe("a local engine whose ffmpeg cannot be found", () => {
  it("refuses the submit with 503 and charges nothing", async () => {
    const u = await visitor(t);
    await grant(t, u.userId, 10);
    const up = await t.http
      .post("/api/ImageUpload/upload")
      .set("token", u.token)
      .attach("file", await photo(320, 240), "p.jpg")
      .field("consent", "1")
      .expect(200);
    const res = await t.http.post("/api/Generation/picVideoSubmit").set("token", u.token).send({ image_id: up.body.data.id, duration: 5 });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 503, msg: "The local draft engine cannot run: ffmpeg cannot be started." });
    expect((await t.services.credits.balance(u.userId)).points).toBe(10);
    expect(await t.db.generationTask.count({ where: { userId: u.userId } })).toBe(0);
    expect(await t.db.ledgerEntry.count({ where: { userId: u.userId, reason: "generation" } })).toBe(0);

    const status = await t.http.get("/api/Generation/engineStatus").expect(200);
    expect(status.body.data).toMatchObject({ engine: "local", available: false, message: "The local draft engine cannot run: ffmpeg cannot be started." });
    // the fix names paths: it is for the operator's log and console, never shown to a user
    expect(status.body.data.fix).toBeUndefined();
    expect(JSON.stringify(status.body)).not.toContain("/nonexistent");
  });

  it("is reported once in the log, with the fix", async () => {
    const lines: string[] = [];
    const log = pino({ level: "info" }, new Writable({ write: (c, _e, cb) => (lines.push(String(c)), cb()) }));
    const engines = createEngines(testConfig({ FFMPEG_PATH: "/nonexistent/bin/ffmpeg" }), log, 0);
    for (let i = 0; i < 3; i++) expect((await engines.status("local")).available).toBe(false);
    const errors = lines.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((l) => l.level >= 50);
    expect(errors).toHaveLength(1);
    expect(errors[0].msg).toMatch(/local engine cannot run: .*ffmpeg.* Fix: .*FFMPEG_PATH/);
  });
});

describe("a template naming an engine that is not configured", () => {
  it("refuses the submit with 503 and charges nothing", async () => {
    const u = await visitor(t);
    await grant(t, u.userId, 10);
    const tpl = await t.db.template.create({
      data: { name: "GPU", category: "Creative", suitFor: "image", mode: "text_to_image", engineParams: {}, creditPrice: 1, engine: "comfyui" },
    });
    const res = await t.http.post("/api/Generation/textPicSubmit").set("token", u.token).send({ prompt: "a lighthouse", template_id: tpl.id });
    expect(res.status).toBe(503);
    expect(res.body.msg).toBe("The comfyui engine is not configured.");
    expect((await t.services.credits.balance(u.userId)).points).toBe(10);
  });
});

describe("generation controls refuse bad values with clear messages", () => {
  it("answers 400 for a bad seed, strength, aspect or negative prompt and charges nothing", async () => {
    const ok = await createTestApp(GENERATION_TEST_ENV, t.testDb);
    try {
      const u = await visitor(ok);
      await grant(ok, u.userId, 10);
      const cases: [object, string][] = [
        [{ prompt: "x", seed: -1 }, "seed must be 0 or more"],
        [{ prompt: "x", seed: "abc" }, "seed must be a whole number"],
        [{ prompt: "x", seed: 2 ** 32 }, "seed must be below 4294967296"],
        [{ prompt: "x", strength: 1.5 }, "Strength range 0-1"],
        [{ prompt: "x", strength: "lots" }, "Strength range 0-1"],
        [{ prompt: "x", aspect: "2:1" }, "aspect must be one of 9:16, 1:1, 16:9, 3:4, 4:3"],
        [{ prompt: "x", negative_prompt: "n".repeat(1001) }, "negative_prompt must be at most 1000 characters"],
      ];
      for (const [body, msg] of cases) {
        const res = await ok.http.post("/api/Generation/textPicSubmit").set("token", u.token).send(body).expect(400);
        expect(res.body.msg).toContain(msg);
      }
      expect(await ok.db.generationTask.count({ where: { userId: u.userId } })).toBe(0);
      expect((await ok.services.credits.balance(u.userId)).points).toBe(10);
    } finally {
      await ok.services.close();
    }
  });
});
