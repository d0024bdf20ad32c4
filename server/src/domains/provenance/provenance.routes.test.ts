import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visitor } from "../../../../tests/db-utils.ts";
import { photo } from "../../../../tests/fixtures/media.ts";
import { GENERATION_TEST_ENV, grant, startWorkerFor, waitForTask } from "../../../../tests/generation-utils.ts";
import { startTestServer } from "../../../../tests/server-utils.ts";
import { PROVENANCE_MESSAGES } from "../../contract/provenance.ts";

let s: Awaited<ReturnType<typeof startTestServer>>;
let worker: { stop(): Promise<void> };
let user: { token: string; userId: number };
let tmp: string;

beforeAll(async () => {
  s = await startTestServer(GENERATION_TEST_ENV);
  worker = await startWorkerFor(s);
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "provenance-"));
  user = await visitor(s);
  await grant(s, user.userId, 50);
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await s?.stop();
  await fs.rm(tmp, { recursive: true, force: true });
});

/** Submits a task on the local engine and answers its finished main output's URL and bytes. */
async function made(call: string, body: object): Promise<{ url: string; bytes: Buffer }> {
  const id = (await s.http.post(`/api/Generation/${call}`).set("token", user.token).send(body).expect(200)).body.data.id as number;
  expect((await waitForTask(s, id, 60_000)).status).toBe("succeeded");
  const d = (await s.http.get(`/api/Generation/picVideoSubmitDetails?id=${id}`).set("token", user.token).expect(200)).body.data;
  const url = (d.video_url ?? d.image_url) as string;
  return { url, bytes: Buffer.from(await (await fetch(new URL(url, s.url))).arrayBuffer()) };
}

/** Asked by nobody signed in, as the public page asks. */
const checkFile = (file: Buffer, name: string) => s.http.post("/api/provenance/check").attach("file", file, name);

describe("Was this made with Reverie?", () => {
  let picture: { url: string; bytes: Buffer };
  let clip: { url: string; bytes: Buffer };
  beforeAll(async () => {
    picture = await made("textPicSubmit", { prompt: "a lighthouse on a cliff at dusk" });
    clip = await made("textVideoSubmit", { prompt: "waves rolling onto a beach", resolution: "480P", duration: 4 });
  }, 120_000);

  it("a delivered picture answers yes from its Content Credentials, uploaded or linked, naming no one", async () => {
    const byFile = (await checkFile(picture.bytes, "picture.png").expect(200)).body.data;
    expect(byFile).toEqual({
      madeWithReverie: true,
      evidence: "credentials",
      madeAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      generator: "Reverie (local)",
      credentials: { valid: true, signedByOperator: true, aiGenerated: true },
    });
    const byLink = (
      await s.http
        .post("/api/provenance/check")
        .send({ link: new URL(picture.url, s.url).toString() })
        .expect(200)
    ).body.data;
    expect(byLink).toEqual(byFile);
    expect(JSON.stringify(byFile)).not.toMatch(/lighthouse|userId|user_id|nickname|Guest_|\/u\//);
  });

  it("a copy stripped of its metadata (re-encoded smaller) answers yes from our fingerprints", async () => {
    const stripped = await sharp(picture.bytes).resize({ width: 700 }).jpeg({ quality: 80 }).toBuffer();
    const answer = (await checkFile(stripped, "copy.jpg").expect(200)).body.data;
    expect(answer).toMatchObject({ madeWithReverie: true, evidence: "fingerprint", generator: "Reverie (local)", credentials: null });
  });

  it("a delivered video answers yes from its credentials, and a re-encoded copy without them from the fingerprints", async () => {
    expect((await checkFile(clip.bytes, "clip.mp4").expect(200)).body.data).toMatchObject({ madeWithReverie: true, evidence: "credentials" });
    const src = path.join(tmp, "clip.mp4");
    const copy = path.join(tmp, "copy.mp4");
    await fs.writeFile(src, clip.bytes);
    execFileSync("ffmpeg", ["-v", "error", "-i", src, "-map_metadata", "-1", "-c:v", "libx264", "-crf", "30", "-an", copy]);
    const answer = (await checkFile(await fs.readFile(copy), "copy.mp4").expect(200)).body.data;
    expect(answer).toMatchObject({ madeWithReverie: true, evidence: "fingerprint", credentials: null });
  });

  it("an unrelated picture answers no", async () => {
    const answer = (await checkFile(await photo(640, 480), "holiday.jpg").expect(200)).body.data;
    expect(answer).toEqual({ madeWithReverie: false, evidence: "none", madeAt: null, generator: null, credentials: null });
  });

  it("bad input is refused with a clear 400", async () => {
    const msg = async (req: ReturnType<typeof checkFile>) => (await req.expect(400)).body.msg;
    expect(await msg(s.http.post("/api/provenance/check").send({}) as ReturnType<typeof checkFile>)).toBe(PROVENANCE_MESSAGES.fileOrLink);
    expect(await msg(checkFile(Buffer.from("just some text, not a picture"), "notes.txt"))).toBe(PROVENANCE_MESSAGES.fileKind);
    for (const link of ["https://example.com/cat.png", "/api/media/file?key=../../etc/passwd", "not a url at all ::"])
      expect(await msg(s.http.post("/api/provenance/check").send({ link }) as ReturnType<typeof checkFile>)).toBe(PROVENANCE_MESSAGES.notOurLink);
  });
});
