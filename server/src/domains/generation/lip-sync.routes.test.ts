import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { comfyStackForFile, type ComfyStack } from "../../../../tests/comfyui-stack.ts";
import { visitor } from "../../../../tests/db-utils.ts";
import type { FakeComfy } from "../../../../tests/fixtures/fake-comfyui.ts";
import { audio, photo } from "../../../../tests/fixtures/media.ts";
import { grant, readSse, waitForTask } from "../../../../tests/generation-utils.ts";
import { MSG } from "../../http/messages.ts";
import { probe } from "../../storage/media-tools.ts";

/**
 * Issue 33 item 1 through the API on the comfyui engine: audio overlay makes the person's photo speak or sing to their
 * audio (Wan 2.2 sound-to-video, decision 305): submit -> progress -> stored -> shown with the audio in it; refunded
 * once when the render fails; refused before any charge where no server makes it. The local engine keeps laying the
 * audio under motion, and its quote says so (no `audio` control, "local draft").
 */
type Graph = Record<string, { class_type: string; inputs: Record<string, unknown> }>;
let fake: FakeComfy;
let s: ComfyStack["s"];
let media: ComfyStack["media"];
comfyStackForFile((stack) => ({ fake, s, media } = stack));

async function person(credits = 30) {
  const u = await visitor(s);
  await grant(s, u.userId, credits);
  const upload = async (p: string, buf: Buffer, name: string, fields: Record<string, string>) => {
    let req = s.http.post(p).set("token", u.token).attach("file", buf, name);
    for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
    return (await req.expect(200)).body.data.id as number;
  };
  const image = await upload("/api/ImageUpload/upload", await photo(640, 360), "me.jpg", { consent: "1" });
  // a 6.5 s sound trimmed from an 8 s file: longer than one 5 s window, so two are chained
  const sound = await upload("/api/ImageUpload/audioFromMedia", await audio(media.dir, 8), "song.mp3", { consent: "1", start: "1", end: "7.5" });
  return { ...u, image, sound };
}
const quote = async (body: Record<string, unknown> = {}) =>
  (
    await s.http
      .post("/api/Generation/getDurationPoints")
      .send({ type: "video", mode: "audio_overlay", duration: 6.5, ...body })
      .expect(200)
  ).body.data;
const balance = async (userId: number) => (await s.services.credits.balance(userId)).points;
const submit = (u: { token: string; image: number; sound: number }, body: object = {}) =>
  s.http
    .post("/api/Generation/picVideoSubmit")
    .set("token", u.token)
    .send({ image_id: u.image, audio_id: u.sound, duration: 6.5, ...body });

describe("audio overlay lip-synced on the comfyui engine", () => {
  it("the photo speaks to its audio: submit -> progress -> stored -> shown, the video as long as the audio and carrying it", async () => {
    const q = await quote();
    // priced as the 14B workflow it runs (heavy, decision 239): two started 5 s blocks at 480P, ×3
    expect(q).toMatchObject({ engine: "comfyui", label: "AI", available: true, points: 6 });
    expect(q.controls).toContain("audio");
    const u = await person();
    const stream = readSse(`${s.url}/api/Generation/progress`, u.token, (ev) => ev.some((e) => e.state === "succeeded"), 60_000);
    const res = await submit(u, { prompt: "she sings softly" }).expect(200);
    expect(res.body.data.cost).toBe(q.points);
    const events = await stream;
    expect(events.some((e) => e.id === res.body.data.id && e.status === "generating")).toBe(true);

    const d = (await s.http.get(`/api/Generation/picVideoSubmitDetails?id=${res.body.data.id}`).set("token", u.token).expect(200)).body.data;
    expect(d).toMatchObject({ status: "generated successfully", action: "audio_overlay", engine: "comfyui", label: "AI" });
    const file = path.join(media.dir, "lip-sync.mp4");
    await fs.writeFile(file, Buffer.from(await (await fetch(new URL(d.video_url, s.url))).arrayBuffer()));
    const p = await probe(file);
    expect([p.video?.width, p.video?.height, p.audio?.codec]).toEqual([848, 480, "aac"]);
    // 104 frames at 16 fps: the length of the 6.5 s audio
    expect(p.durationSec).toBeGreaterThan(6.4);
    expect(p.durationSec).toBeLessThan(6.65);

    // one prompt: the person's audio uploaded and read by the graph, two windows chained, the prompt and seed bound
    const graph = fake.recorded.prompts.at(-1)!.prompt as Graph;
    const ofClass = (cls: string) => Object.values(graph).filter((n) => n.class_type === cls);
    const loaded = String(ofClass("LoadAudio")[0].inputs.audio);
    expect(fake.recorded.uploads).toContain(loaded);
    expect(fake.inputFile(loaded)?.subarray(4, 8).toString()).toBe("ftyp");
    expect(ofClass("WanSoundImageToVideoExtend")).toHaveLength(1);
    expect(ofClass("ImageFromBatch")[0].inputs.length).toBe(104);
    expect(JSON.stringify(graph)).toContain("she sings softly");
    const task = await s.db.generationTask.findUniqueOrThrow({ where: { id: res.body.data.id } });
    expect((task.runs as { workflow: string }[])[0].workflow).toBe("wan22-s2v-14b");
  }, 90_000);

  it("refunds exactly once when the render fails", async () => {
    const u = await person(20);
    fake.state.failNext = 10;
    try {
      const res = await submit(u).expect(200);
      expect(await balance(u.userId)).toBe(20 - res.body.data.cost);
      const task = await waitForTask(s, res.body.data.id, 60_000);
      expect(task.status).toBe("failed");
      expect(task.error).toMatch(/CUDA out of memory/);
      expect(await s.db.ledgerEntry.count({ where: { userId: u.userId, reason: "generation_refund" } })).toBe(1);
      expect(await balance(u.userId)).toBe(20);
    } finally {
      fake.state.failNext = 0;
    }
  }, 90_000);

  it("refused before any charge where no server makes it; the local engine keeps the audio under motion and says so", async () => {
    // the failed render left the workflow refused on the server until its next check (decision 236)
    await expect.poll(async () => (await quote()).available, { timeout: 10_000 }).toBe(true);
    const u = await person(10);
    const local = await s.db.template.create({
      data: { name: "Local", category: "Creative", suitFor: "image", mode: "audio_overlay", engine: "local", engineParams: {}, creditPrice: 1 },
    });
    const draft = await quote({ template_id: local.id });
    expect(draft).toMatchObject({ engine: "local", label: "local draft", available: true });
    expect(draft.controls).not.toContain("audio");
    // the audio encoder leaves the only server: lip sync is made nowhere now
    fake.removeModel("audio_encoders", "wav2vec2_large_english_fp16.safetensors");
    await expect.poll(async () => (await quote()).available, { timeout: 10_000 }).toBe(false);
    const res = await submit(u);
    expect([res.status, res.body.msg]).toEqual([503, MSG.lipSyncUnavailable]);
    // a photo video still runs there: only the sound-driven workflow is gone
    expect((await quote({ mode: "image_to_video" })).available).toBe(true);
    expect(await balance(u.userId)).toBe(10);
    expect(await s.db.generationTask.count({ where: { userId: u.userId } })).toBe(0);
  }, 60_000);
});
