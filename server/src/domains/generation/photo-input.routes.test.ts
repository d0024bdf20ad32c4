import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visitor } from "../../../../tests/db-utils.ts";
import { startFakeComfy, type FakeComfy } from "../../../../tests/fixtures/fake-comfyui.ts";
import { photo } from "../../../../tests/fixtures/media.ts";
import { grant, startComfyTestApp, waitForTask } from "../../../../tests/generation-utils.ts";
import type { startTestServer } from "../../../../tests/server-utils.ts";
import { MSG } from "../../http/messages.ts";

/**
 * Issue 44 item 4 through the API: while no workflow reading a photo can run (the server lacks VAEEncode for image to
 * image and the Qwen edit encoder for the character reference workflow), a picture from a photo is refused with 503 and its reason before any charge, never run as text to image; text to image still runs.
 */
let fake: FakeComfy;
let s: Awaited<ReturnType<typeof startTestServer>>;
let stopApp: () => Promise<void>;

beforeAll(async () => {
  fake = await startFakeComfy({ missingNodes: ["VAEEncode", "TextEncodeQwenImageEditPlus"] });
  ({ app: s, stop: stopApp } = await startComfyTestApp(fake.url));
}, 60_000);
afterAll(async () => {
  await stopApp?.();
  await fake?.close();
});

describe("a photo given to text to image while image to image cannot run (issue 44 item 4)", () => {
  it("is refused with 503 and its reason before any charge; the quote says unavailable; text to image still runs", async () => {
    const u = await visitor(s);
    await grant(s, u.userId, 10);
    const imageId = (
      await s.http
        .post("/api/ImageUpload/upload")
        .set("token", u.token)
        .attach("file", await photo(320, 240), "p.jpg")
        .field("consent", "1")
        .expect(200)
    ).body.data.id as number;
    const quote = async (body: object) =>
      (
        await s.http
          .post("/api/Generation/getDurationPoints")
          .send({ type: "image", ...body })
          .expect(200)
      ).body.data;
    expect(await quote({ mode: "text_to_image", image_id: imageId })).toMatchObject({ available: false });
    expect((await quote({ mode: "text_to_image", image_id: imageId })).controls).not.toContain("image");
    expect(await quote({ mode: "text_to_image" })).toMatchObject({ available: true });
    const refused = await s.http.post("/api/Generation/generativeModel").set("token", u.token).send({ prompt: "as a painting", image_id: imageId });
    expect(refused.status).toBe(503);
    expect(refused.body.msg).toBe(MSG.photoToImageUnavailable);
    expect((await s.services.credits.balance(u.userId)).points).toBe(10);
    expect(await s.db.generationTask.count({ where: { userId: u.userId } })).toBe(0);
    expect(fake.recorded.prompts).toHaveLength(0);
    const plain = await s.http.post("/api/Generation/textPicSubmit").set("token", u.token).send({ prompt: "a lighthouse" }).expect(200);
    expect((await waitForTask(s, plain.body.data.id, 30_000)).status).toBe("succeeded");
  }, 60_000);
});
