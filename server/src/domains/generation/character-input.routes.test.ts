import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visitor } from "../../../../tests/db-utils.ts";
import { startFakeComfy, type FakeComfy } from "../../../../tests/fixtures/fake-comfyui.ts";
import { loraSafetensors } from "../../../../tests/fixtures/lora-files.ts";
import { photo } from "../../../../tests/fixtures/media.ts";
import { grant, startComfyTestApp, waitForTask } from "../../../../tests/generation-utils.ts";
import type { startTestServer } from "../../../../tests/server-utils.ts";
import { MSG } from "../../http/messages.ts";

/**
 * Issue 44 item 3 through the API, two people at once: one person's character model that the GPU server cannot load
 * fails that person's task alone, refunded once, telling them so; the other person's task of the same workflow runs,
 * and the workflow stays offered.
 */
let fake: FakeComfy;
let s: Awaited<ReturnType<typeof startTestServer>>;
let stopApp: () => Promise<void>;

beforeAll(async () => {
  fake = await startFakeComfy();
  ({ app: s, stop: stopApp } = await startComfyTestApp(fake.url, { WORKER_CONCURRENCY: "2" }, { ownPublicUrl: true }));
}, 60_000);
afterAll(async () => {
  await stopApp?.();
  await fake?.close();
});

async function character(userId: number, token: string) {
  const cover = (
    await s.http
      .post("/api/ImageUpload/upload")
      .set("token", token)
      .attach("file", await photo(300, 400, "png"), "me.png")
      .field("consent", "1")
      .expect(200)
  ).body.data.id as number;
  const artifactKey = `u/${userId}/models/alice_lora_v1.safetensors`;
  await s.services.storage.put(artifactKey, loraSafetensors(4, 64, "sdxl"), "application/octet-stream");
  return s.db.characterModel.create({
    // recorded under a hash its stored file does not have (a damaged training output): the GPU server fetches it and
    // its check refuses the file, which no other server would load either
    data: {
      userId,
      name: "Me",
      homeLink: `me${userId}`,
      coverUploadId: cover,
      cost: 5,
      status: "success",
      artifactKey,
      triggerWord: "rvtest",
      // an SDXL character: the image-to-image workflow of its family is the one the other person's photo runs (decision 395)
      baseModel: "stabilityai/stable-diffusion-xl-base-1.0",
      weightsSha256: "c".repeat(64),
    },
  });
}

describe("a character model the GPU server cannot load (issue 44 item 3)", () => {
  it("fails that person's task alone, refunded once, with the true translated reason; the other person's runs on the same workflow", async () => {
    const [alice, bob] = [await visitor(s), await visitor(s)];
    await grant(s, alice.userId, 10);
    await grant(s, bob.userId, 10);
    const model = await character(alice.userId, alice.token);
    const bobPhoto = (
      await s.http
        .post("/api/ImageUpload/upload")
        .set("token", bob.token)
        .attach("file", await photo(320, 240), "p.jpg")
        .field("consent", "1")
        .expect(200)
    ).body.data.id as number;
    // both image-to-image from a photo (hers: her character's cover), submitted together
    const [a, b] = await Promise.all([
      s.http.post("/api/Generation/textPicSubmit").set("token", alice.token).send({ prompt: "me at the beach", role_id: model.id }).expect(200),
      s.http.post("/api/Generation/generativeModel").set("token", bob.token).send({ prompt: "as a painting", image_id: bobPhoto }).expect(200),
    ]);
    const [ta, tb] = await Promise.all([waitForTask(s, a.body.data.id, 30_000), waitForTask(s, b.body.data.id, 30_000)]);
    expect(ta.status).toBe("failed");
    expect(ta.error).toMatch(/node 2 \(ReverieLoraLoader\) .*SHA-256 mismatch/);
    expect(ta.failedInput).toBe("lora");
    expect(tb.status).toBe("succeeded");
    // both were queued once, on one server: hers failed at her loader (never tried elsewhere), his rendered
    expect(fake.recorded.prompts).toHaveLength(2);
    expect(await s.db.ledgerEntry.count({ where: { userId: alice.userId, reason: "generation_refund" } })).toBe(1);
    expect((await s.services.credits.balance(alice.userId)).points).toBe(10);
    const d = (await s.http.get(`/api/Generation/picVideoSubmitDetails?id=${ta.id}`).set("token", alice.token).expect(200)).body.data;
    expect(d).toMatchObject({ msg: MSG.loraFailed, failed_input: "lora" });
    // nobody lost the workflow: the next image from a photo is sold and runs
    const quote = (await s.http.post("/api/Generation/getDurationPoints").send({ type: "image", mode: "text_to_image", image_id: bobPhoto }).expect(200)).body
      .data;
    expect(quote.available).toBe(true);
    const again = await s.http.post("/api/Generation/generativeModel").set("token", bob.token).send({ prompt: "in ink", image_id: bobPhoto }).expect(200);
    expect((await waitForTask(s, again.body.data.id, 30_000)).status).toBe("succeeded");
  }, 90_000);
});
