import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visitor } from "../../../../tests/db-utils.ts";
import { startComfyStack, type ComfyStack } from "../../../../tests/comfyui-stack.ts";
import type { FakeComfy } from "../../../../tests/fixtures/fake-comfyui.ts";
import { followUpClient } from "../../../../tests/follow-up-utils.ts";
import { grant, waitForTask } from "../../../../tests/generation-utils.ts";
import { difference, packets, pictureAt, pictures } from "../../../../tests/media-compare.ts";
import { type Corner, MARK_CORNERS } from "../../contract/generation.ts";
import { probe } from "../../storage/media-tools.ts";
import type { TaskOutputs } from "./generation.task.ts";
import { placeMark } from "./generation.watermark.ts";

/**
 * One mark on a follow-up of a free result, never two (decision 316): a free extension marks only its new part, in the
 * clip's own corner, and joins it after the clip's packets as they were stored; a paid one adds no mark; a 1080p of a
 * marked clip is the server's upscale of it as it is (its mark upscaled), with no mark of ours over it.
 */
let fake: FakeComfy;
let s: ComfyStack["s"];
let stop: (() => Promise<void>) | undefined;
let api: ReturnType<typeof followUpClient>;

beforeAll(async () => {
  const stack = await startComfyStack({ msPerStep: 1 });
  ({ fake, s, stop } = stack);
  api = followUpClient(stack);
}, 60_000);
afterAll(() => stop?.());

/** Someone whose credits were all given (a grant): their output is free output, marked (decision 296). */
async function giftedPerson() {
  const u = await visitor(s);
  await grant(s, u.userId, 200);
  return u;
}

/** The server's own last video file: a render before any mark of ours. */
const lastRender = () => fake.recorded.outputs.filter((f) => f.endsWith(".mp4")).at(-1)!;

/** The mark's box in each corner of a `width` x `height` picture (the default mark is square). */
const corners = (width: number, height: number) => MARK_CORNERS.map((c) => placeMark(width, height, 1, [], c));

/** Where a stored picture differs from the server's render of it: the corners with a mark (mean difference above 10). */
async function marksIn(picture: string, render: string): Promise<Corner[]> {
  const { video } = await probe(render);
  const marked = await Promise.all(
    corners(video!.width, video!.height).map(async (box) => ((await difference(picture, render, box, "inside")) > 10 ? [box.corner] : [])),
  );
  return marked.flat();
}

const outputsOf = async (id: number) => (await s.db.generationTask.findUniqueOrThrow({ where: { id } })).outputs as unknown as TaskOutputs;

describe("one watermark on a follow-up of a free clip (decision 316)", () => {
  it("a free extension of a free clip: one mark in the clip's corner over both parts, the clip's packets as stored", async () => {
    const u = await giftedPerson();
    const source = await api.finished(u.token, "clip", 2);
    const clipRender = lastRender();
    const original = await api.stored(u.token, source);
    expect((await outputsOf(source)).mark).toBe("bottom-right");
    const res = await api.post(u.token, "followUpSubmit", { source_id: source, kind: "extend", duration: 2 }).expect(200);
    expect(res.body.data.paid_with).toBe("credits");
    expect((await waitForTask(s, res.body.data.id, 60_000)).status).toBe("succeeded");
    const tailRender = lastRender();
    const joined = await api.stored(u.token, res.body.data.id);

    // the clip's part is the stored clip's packets (each part's first packet gains its parameter sets in the join)
    const [head, all, tail] = await Promise.all([packets(original.file), packets(joined.file), packets(tailRender)]);
    expect(all).toHaveLength(head.length + tail.length);
    expect(all.slice(1, head.length)).toEqual(head.slice(1));
    // pictures from both parts: the mark once, bottom right (the clip's), nowhere else
    for (const [n, render, k] of [
      [1, clipRender, 1],
      [head.length - 1, clipRender, head.length - 1],
      [head.length + 1, tailRender, 1],
      [all.length - 1, tailRender, tail.length - 1],
    ] as const) {
      const [picture, clean] = await Promise.all([pictureAt(joined.file, n), pictureAt(render, k)]);
      expect(await marksIn(picture, clean), `picture ${n}`).toEqual(["bottom-right"]);
    }
    // no second mark over the first: the clip's pictures are the stored clip's own
    const [first, stored] = await Promise.all([pictureAt(joined.file, 1), pictureAt(original.file, 1)]);
    expect(await difference(first, stored, corners(640, 360)[0], "inside")).toBe(0);
    expect((await outputsOf(res.body.data.id)).mark).toBe("bottom-right");
  }, 180_000);

  it("a paid extension of a free clip adds no mark: the clip's pictures as stored, then the server's continuation", async () => {
    const u = await giftedPerson();
    const source = await api.finished(u.token, "clip", 2);
    const original = await api.stored(u.token, source);
    // an order after the clip: the extension's charge is paid with bought credits (decision 296)
    await s.services.credits.grant({ userId: u.userId, amount: 100, reason: "purchase", reference: "order:X", idempotencyKey: `order:${u.userId}` });
    const res = await api.post(u.token, "followUpSubmit", { source_id: source, kind: "extend", duration: 2 }).expect(200);
    expect((await waitForTask(s, res.body.data.id, 60_000)).status).toBe("succeeded");
    const joined = await api.stored(u.token, res.body.data.id);
    expect(await pictures(joined.file)).toEqual([...(await pictures(original.file)), ...(await pictures(lastRender()))]);
    // the file still carries the clip's mark, where the clip had it
    expect((await outputsOf(res.body.data.id)).mark).toBe("bottom-right");
  }, 180_000);

  it("a free extension of an unmarked clip marks the new part alone, the clip's part left as it was", async () => {
    const u = await giftedPerson();
    const brand = (on: boolean) =>
      s.db.siteSetting.upsert({ where: { key: "brand" }, create: { key: "brand", value: { watermark: on } }, update: { value: { watermark: on } } });
    await brand(false);
    let source: number;
    try {
      source = await api.finished(u.token, "clip", 2);
    } finally {
      await brand(true);
    }
    const original = await api.stored(u.token, source);
    expect((await outputsOf(source)).mark).toBeNull();
    const res = await api.post(u.token, "followUpSubmit", { source_id: source, kind: "extend", duration: 2 }).expect(200);
    expect((await waitForTask(s, res.body.data.id, 60_000)).status).toBe("succeeded");
    const tailRender = lastRender();
    const joined = await api.stored(u.token, res.body.data.id);
    const head = await pictures(original.file);
    expect((await pictures(joined.file)).slice(0, head.length)).toEqual(head);
    const [picture, clean] = await Promise.all([pictureAt(joined.file, head.length + 1), pictureAt(tailRender, 1)]);
    expect(await marksIn(picture, clean)).toEqual(["bottom-right"]);
    expect((await outputsOf(res.body.data.id)).mark).toBe("bottom-right");
  }, 180_000);

  it("1080p of a marked free clip is the server's upscale as it is: its mark upscaled, none of ours over it", async () => {
    const u = await giftedPerson();
    const source = await api.finished(u.token, "clip", 2);
    const res = await api.post(u.token, "followUpSubmit", { source_id: source, kind: "upscale" }).expect(200);
    expect((await waitForTask(s, res.body.data.id, 60_000)).status).toBe("succeeded");
    // the fake server draws a fresh picture where a real one upscales the stored (marked) clip: equal packets are its file
    const upscaled = await api.stored(u.token, res.body.data.id);
    expect(await packets(upscaled.file)).toEqual(await packets(lastRender()));
    expect((await outputsOf(res.body.data.id)).mark).toBe("bottom-right");
    // a clip stored before results recorded their mark: decision 296's rule, asked again, says it was marked
    const { mark: _, ...unrecorded } = await outputsOf(source);
    await s.db.generationTask.update({ where: { id: source }, data: { outputs: unrecorded as object } });
    const again = await api.post(u.token, "followUpSubmit", { source_id: source, kind: "upscale" }).expect(200);
    expect((await waitForTask(s, again.body.data.id, 60_000)).status).toBe("succeeded");
    expect(await packets((await api.stored(u.token, again.body.data.id)).file)).toEqual(await packets(lastRender()));
    expect((await outputsOf(again.body.data.id)).mark).toBe("bottom-right");
  }, 180_000);
});
