import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startComfyStack, type ComfyStack } from "../../../../tests/comfyui-stack.ts";
import type { FakeComfy } from "../../../../tests/fixtures/fake-comfyui.ts";
import { followUpClient } from "../../../../tests/follow-up-utils.ts";
import { buyer, waitForTask } from "../../../../tests/generation-utils.ts";
import { packets, pictures } from "../../../../tests/media-compare.ts";
import { MSG } from "../../http/messages.ts";
import { probe } from "../../storage/media-tools.ts";

/**
 * Issue 33 items 5 and 6 through the API on the comfyui engine (decision 307): a finished clip extended from its last
 * frame into one joined file, and a finished clip or picture made 1080p; each priced before confirming, charged once
 * per idempotency key, refused before any charge where it cannot run, refunded once when the render fails, and only
 * ever of one's own results.
 */
type Graph = Record<string, { class_type: string; inputs: Record<string, unknown> }>;
let fake: FakeComfy;
let s: ComfyStack["s"];
let media: ComfyStack["media"];
let stop: (() => Promise<void>) | undefined;
let post: ReturnType<typeof followUpClient>["post"];
let finished: ReturnType<typeof followUpClient>["finished"];
let stored: ReturnType<typeof followUpClient>["stored"];

beforeAll(async () => {
  ({ fake, s, media, stop } = await startComfyStack({ msPerStep: 1 }));
  ({ post, finished, stored } = followUpClient({ s, media }));
}, 60_000);
afterAll(() => stop?.());

const person = (credits = 200) => buyer(s, credits);
const balance = async (userId: number) => (await s.services.credits.balance(userId)).points;

describe("follow-ups of a finished result on the comfyui engine", () => {
  it("extends a clip from its last frame into one file: the clip's own pictures, then the continuation, priced per started block", async () => {
    const u = await person();
    const source = await finished(u.token, "clip", 2);
    const original = await stored(u.token, source);
    // priced per started 5 s block of the continuation, at the workflow's class (Wan 2.2 14B, heavy: 3 a block)
    const quote = async (duration: number) => (await post(u.token, "followUpPoints", { source_id: source, kind: "extend", duration }).expect(200)).body.data;
    expect(await quote(5)).toMatchObject({ points: 3, available: true, reason: null, max_duration: 38, engine: "comfyui" });
    expect((await quote(6)).points).toBe(6);
    expect((await quote(1)).points).toBe(3);

    const before = await balance(u.userId);
    const res = await post(u.token, "followUpSubmit", { source_id: source, kind: "extend", duration: 3 }).expect(200);
    expect(res.body.data.cost).toBe(3);
    expect(await balance(u.userId)).toBe(before - 3);
    const task = await waitForTask(s, res.body.data.id, 60_000);
    expect(task.status).toBe("succeeded");

    // the continuation started from the clip's last frame: a picture of the clip's size, not the person's photo
    const graph = fake.recorded.prompts.at(-1)!.prompt as Graph;
    const load = Object.values(graph).find((n) => n.class_type === "LoadImage")!;
    const frame = await sharp(fake.inputFile(String(load.inputs.image))).metadata();
    const clip = await probe(original.file);
    expect([frame.width, frame.height]).toEqual([clip.video?.width, clip.video?.height]);

    // one file, as long as the clip and its continuation together; the clip's pictures copied, not encoded again
    const joined = await stored(u.token, res.body.data.id);
    const continuation = fake.recorded.outputs.at(-1)!;
    const [j, c] = await Promise.all([probe(joined.file), probe(continuation)]);
    expect(j.durationSec).toBeCloseTo(clip.durationSec + c.durationSec, 1);
    const [head, tail, all] = await Promise.all([packets(original.file), packets(continuation), packets(joined.file)]);
    expect(all).toHaveLength(head.length + tail.length);
    // each part's first packet gains its own parameter sets in the join; every other packet is the encoder's own
    const inner = (list: string[], from: number, n: number) => list.slice(from + 1, from + n);
    expect([inner(all, 0, head.length), inner(all, head.length, tail.length)]).toEqual([head.slice(1), tail.slice(1)]);
    expect(await pictures(joined.file)).toEqual([...(await pictures(original.file)), ...(await pictures(continuation))]);
    expect(joined.view).toMatchObject({ follow_up: "extend", follow_up_of: source, duration: 5, action: "image_to_video", status: "generated successfully" });
    // the source is listed as it was, the follow-up beside it in the library
    const list = (await s.http.get("/api/Generation/uploadLists").set("token", u.token).expect(200)).body.data.list as {
      id: number;
      follow_up_of: number | null;
    }[];
    expect(list.map((t) => [t.id, t.follow_up_of])).toEqual([
      [res.body.data.id, source],
      [source, null],
    ]);
  }, 120_000);

  it("refuses an extension past SPEC's 40 s, and of a picture, before any charge", async () => {
    const u = await person();
    const source = await finished(u.token, "clip", 30);
    const over = await post(u.token, "followUpSubmit", { source_id: source, kind: "extend", duration: 11 });
    expect([over.status, over.body.msg]).toEqual([400, MSG.durationLimit]);
    expect((await post(u.token, "followUpPoints", { source_id: source, kind: "extend", duration: 10 }).expect(200)).body.data.max_duration).toBe(10);
    // the quote says so before confirming, with the seconds left
    const quoted = (await post(u.token, "followUpPoints", { source_id: source, kind: "extend", duration: 11 }).expect(200)).body.data;
    expect(quoted).toMatchObject({ available: false, reason: MSG.durationLimit, max_duration: 10 });
    const tooLong = await post(u.token, "followUpSubmit", { source_id: source, kind: "extend", duration: 41 });
    expect([tooLong.status, tooLong.body.msg]).toEqual([400, MSG.durationLimit]);
    // a picture has no clip to extend
    const picture = await finished(u.token, "picture");
    expect((await post(u.token, "followUpSubmit", { source_id: picture, kind: "extend", duration: 1 })).body.msg).toBe(MSG.notExtendable);
    expect(await balance(u.userId)).toBe(200 - 18 - 1);
    expect(await s.db.generationTask.count({ where: { userId: u.userId, followUp: { not: null } } })).toBe(0);
  }, 120_000);

  it("makes a clip and a picture 1080p on the short side, the clip's file as the server encoded it (one pass)", async () => {
    const u = await person();
    const clip = await finished(u.token, "clip", 2);
    const picture = await finished(u.token, "picture");
    const source = await probe((await stored(u.token, clip)).file);
    const clipQuote = (await post(u.token, "followUpPoints", { source_id: clip, kind: "upscale" }).expect(200)).body.data;
    expect(clipQuote).toMatchObject({ points: 1, available: true, duration: 2 });
    const up = await post(u.token, "followUpSubmit", { source_id: clip, kind: "upscale" }).expect(200);
    expect(up.body.data.cost).toBe(clipQuote.points);
    expect((await waitForTask(s, up.body.data.id, 60_000)).status).toBe("succeeded");
    const made = fake.recorded.outputs.at(-1)!;
    const result = await stored(u.token, up.body.data.id);
    const p = await probe(result.file);
    expect(Math.min(p.video!.width, p.video!.height)).toBe(1080);
    expect(p.video!.width / p.video!.height).toBeCloseTo(source.video!.width / source.video!.height, 2);
    expect(p.durationSec).toBeCloseTo(source.durationSec, 1);
    expect(await packets(result.file)).toEqual(await packets(made));
    const runs = (await s.db.generationTask.findUniqueOrThrow({ where: { id: up.body.data.id } })).runs as { workflow: string }[];
    expect(runs.map((r) => r.workflow)).toEqual(["esrgan-upscale-video"]);
    expect(result.view).toMatchObject({ follow_up: "upscale", follow_up_of: clip, width: p.video!.width, height: 1080 });

    const pic = await post(u.token, "followUpSubmit", { source_id: picture, kind: "upscale" }).expect(200);
    expect(pic.body.data.cost).toBe(1);
    expect((await waitForTask(s, pic.body.data.id, 60_000)).status).toBe("succeeded");
    const img = await sharp((await stored(u.token, pic.body.data.id)).file).metadata();
    expect(Math.min(img.width!, img.height!)).toBe(1080);
    // already 1080p: nothing to do, nothing charged
    const again = await post(u.token, "followUpSubmit", { source_id: pic.body.data.id, kind: "upscale" });
    expect([again.status, again.body.msg]).toEqual([400, MSG.alreadyHd]);
  }, 120_000);

  it("only of one's own finished results: another's looks missing, and nothing is charged to either", async () => {
    const owner = await person();
    const other = await person();
    const source = await finished(owner.token, "clip", 2);
    for (const [route, body] of [
      ["followUpPoints", { source_id: source, kind: "upscale" }],
      ["followUpSubmit", { source_id: source, kind: "upscale" }],
      ["followUpSubmit", { source_id: source, kind: "extend", duration: 2 }],
    ] as const) {
      const res = await post(other.token, route, body);
      expect([res.status, res.body.msg]).toEqual([404, MSG.notFound]);
    }
    // a guest without a login, and bad input
    expect((await s.http.post("/api/Generation/followUpSubmit").send({ source_id: source, kind: "upscale" })).status).toBe(401);
    expect((await post(owner.token, "followUpSubmit", { source_id: source, kind: "loop" })).status).toBe(400);
    expect((await post(owner.token, "followUpSubmit", { source_id: "x", kind: "upscale" })).status).toBe(400);
    expect(await balance(other.userId)).toBe(200);
    expect(await s.db.generationTask.count({ where: { followUpOfId: source } })).toBe(0);
  }, 120_000);

  it("20 identical requests at once with one idempotency key make one task and charge once", async () => {
    const u = await person();
    const source = await finished(u.token, "clip", 2);
    const before = await balance(u.userId);
    const body = { source_id: source, kind: "extend", duration: 2, idempotency_key: "extend-once" };
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(u.token, "followUpSubmit", body)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
    expect(await balance(u.userId)).toBe(before - 3);
    expect(await s.db.ledgerEntry.count({ where: { userId: u.userId, reason: "generation" } })).toBe(2);
    await waitForTask(s, answers[0].body.data.id, 60_000);
  }, 120_000);

  it("refunds exactly once when the render fails", async () => {
    const u = await person();
    const source = await finished(u.token, "clip", 2);
    const before = await balance(u.userId);
    fake.state.failNext = 10;
    try {
      const res = await post(u.token, "followUpSubmit", { source_id: source, kind: "upscale" }).expect(200);
      expect(await balance(u.userId)).toBe(before - res.body.data.cost);
      const task = await waitForTask(s, res.body.data.id, 60_000);
      expect(task.status).toBe("failed");
      expect(await s.db.ledgerEntry.count({ where: { userId: u.userId, reason: "generation_refund" } })).toBe(1);
      expect(await balance(u.userId)).toBe(before);
    } finally {
      fake.state.failNext = 0;
    }
  }, 120_000);

  it("refused before any charge where no server offers the upscale, and for a local draft, saying why; offered only where they run", async () => {
    const u = await person();
    // the follow-ups a result's view offers: the app shows only these buttons (issue 46 item 9)
    const offered = async (id: number) =>
      (await s.http.get(`/api/Generation/picVideoSubmitDetails?id=${id}`).set("token", u.token).expect(200)).body.data.follow_ups;
    const clip = await finished(u.token, "clip", 2);
    const before = await balance(u.userId);
    // a local draft: the draft renderer has no way to continue or upscale it
    const draft = await s.db.generationTask.create({
      data: {
        userId: u.userId,
        mode: "image_to_video",
        engine: "local",
        cost: 1,
        input: { params: {}, sources: {} },
        status: "succeeded",
        outputKey: "x.mp4",
        durationSec: 5,
      },
    });
    expect(await offered(draft.id)).toEqual([]);
    for (const kind of ["extend", "upscale"]) {
      const q = (await post(u.token, "followUpPoints", { source_id: draft.id, kind, duration: 2 }).expect(200)).body.data;
      expect(q).toMatchObject({ available: false, reason: MSG.followUpNeedsAi, engine: "local" });
      const res = await post(u.token, "followUpSubmit", { source_id: draft.id, kind, duration: 2 });
      expect([res.status, res.body.msg]).toEqual([503, MSG.followUpNeedsAi]);
    }
    // the upscale model leaves the only server: 1080p is offered nowhere now
    await expect
      .poll(async () => (await post(u.token, "followUpPoints", { source_id: clip, kind: "upscale" })).body.data.available, { timeout: 10_000 })
      .toBe(true);
    expect(await offered(clip)).toEqual(["extend", "upscale"]);
    // a clip with no second left under the 40 s cap is offered no extension
    await s.db.generationTask.update({ where: { id: clip }, data: { durationSec: 39.5 } });
    expect(await offered(clip)).toEqual(["upscale"]);
    await s.db.generationTask.update({ where: { id: clip }, data: { durationSec: 2 } });
    fake.removeModel("upscale_models", "RealESRGAN_x2plus.pth");
    await expect
      .poll(async () => (await post(u.token, "followUpPoints", { source_id: clip, kind: "upscale" })).body.data.reason, { timeout: 10_000 })
      .toBe(MSG.upscaleUnavailable);
    expect(await offered(clip)).toEqual(["extend"]);
    const res = await post(u.token, "followUpSubmit", { source_id: clip, kind: "upscale" });
    expect([res.status, res.body.msg]).toEqual([503, MSG.upscaleUnavailable]);
    expect(await s.db.generationTask.count({ where: { userId: u.userId, followUp: { not: null } } })).toBe(0);
    expect(await balance(u.userId)).toBe(before);
  }, 120_000);
});
