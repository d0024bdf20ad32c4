import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { staffMember } from "../../../../tests/staff-utils.ts";
import { PIXEL_FLAGS } from "../../contract/pixels.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.db.channel.create({ data: { code: "default", name: "Direct", vk: 0 } });
  const promo = await t.db.channel.create({ data: { code: "promo", name: "Promo", google: 0 } });
  await t.db.pixelId.createMany({
    data: [
      { channelId: promo.id, kind: 1, value: "FB-1" },
      { channelId: promo.id, kind: 1, value: "FB-2" },
      { channelId: promo.id, kind: 2, value: "TT-1" },
      { channelId: promo.id, kind: 3, event: "order", value: "AW-1/order" },
      { channelId: promo.id, kind: 5, value: "bemob.example.com" },
    ],
  });
});
afterAll(() => t.close());

describe("GET /api/Pixelcollect/getpixeLState", () => {
  it("answers the channel's eight switches as 0/1 with the SPEC names", async () => {
    const res = await t.http.get("/api/Pixelcollect/getpixeLState?channel_id=promo&t=1").expect(200);
    expect(res.body).toEqual({ code: 200, msg: "success", data: { Facebook: 1, TikTok: 1, Google: 0, Bigo: 1, BeMob: 1, KSpin: 1, ExoClick: 1, Vk: 1 } });
  });

  it("uses the channel-id header, and the default channel for an unknown or missing one", async () => {
    expect((await t.http.get("/api/pixelcollect/getpixelstate").set("channel-id", "promo").expect(200)).body.data.Google).toBe(0);
    expect((await t.http.get("/api/Pixelcollect/getpixeLState?channel_id=nope").expect(200)).body.data).toMatchObject({ Google: 1, Vk: 0 });
    expect((await t.http.get("/api/Pixelcollect/getpixeLState").expect(200)).body.data.Vk).toBe(0);
  });

  it("follows what a marketer changes in the console", async () => {
    const marketer = await staffMember(t, ["marketer"]);
    const promo = await t.db.channel.findUniqueOrThrow({ where: { code: "promo" } });
    await t.http.put(`/admin/api/channels/${promo.id}`).set("token", marketer.token).send({ tiktok: 0 }).expect(200);
    expect((await t.http.get("/api/Pixelcollect/getpixeLState?channel_id=promo").expect(200)).body.data.TikTok).toBe(0);
    expect((await t.http.get("/api/pixelcollect/pixelList?type=2&channel_id=promo").expect(200)).body.data).toEqual([]);
    await t.http.put(`/admin/api/channels/${promo.id}`).set("token", marketer.token).send({ tiktok: 1 }).expect(200);
    await t.http.put(`/admin/api/channels/${promo.id}`).set("token", marketer.token).send({ tiktok: 2 }).expect(400);
  });

  it("starts a channel a marketer creates with every pixel switched off (issue 35 item 4)", async () => {
    const marketer = await staffMember(t, ["marketer"]);
    const created = (await t.http.post("/admin/api/channels").set("token", marketer.token).send({ code: "fresh", name: "Fresh" }).expect(200)).body;
    expect(PIXEL_FLAGS.map(([column]) => created[column])).toEqual(Array(8).fill(0));
    expect(Object.values((await t.http.get("/api/Pixelcollect/getpixeLState?channel_id=fresh").expect(200)).body.data)).toEqual(Array(8).fill(0));
  });
});

describe("GET /api/pixelcollect/pixelList", () => {
  it("answers the ids of one kind, by event when given, empty while that kind is off", async () => {
    expect((await t.http.get("/api/pixelcollect/pixelList?type=1&channel_id=promo").expect(200)).body.data).toEqual(["FB-1", "FB-2"]);
    expect((await t.http.get("/api/pixelcollect/pixelList?type=5&channel_id=promo").expect(200)).body.data).toEqual(["bemob.example.com"]);
    // Google Ads (kind 3) is switched off on this channel
    expect((await t.http.get("/api/pixelcollect/pixelList?type=3&channel_id=promo&pixel_event=order").expect(200)).body.data).toEqual([]);
    await t.db.channel.update({ where: { code: "promo" }, data: { google: 1 } });
    expect((await t.http.get("/api/pixelcollect/pixelList?type=3&channel_id=promo&pixel_event=order").expect(200)).body.data).toEqual(["AW-1/order"]);
    expect((await t.http.get("/api/pixelcollect/pixelList?type=3&channel_id=promo&pixel_event=cart_add").expect(200)).body.data).toEqual([]);
  });

  it("refuses a kind outside 1-8", async () => {
    expect((await t.http.get("/api/pixelcollect/pixelList?type=9").expect(400)).body.msg).toBe("type must be 1 to 8");
    await t.http.get("/api/pixelcollect/pixelList").expect(400);
  });
});

describe("POST /api/pixelcollect/add", () => {
  it("records the event with the caller and channel", async () => {
    const user = await visitor(t);
    const res = await t.http
      .post("/api/pixelcollect/add")
      .set("token", user.token)
      .set("channel-id", "promo")
      .send({ event: "first_open", ms: 2000 })
      .expect(200);
    const row = await t.db.pixelEvent.findUniqueOrThrow({ where: { id: res.body.data.id } });
    expect(row).toMatchObject({ userId: user.userId, channelId: "promo", event: "first_open", payload: { ms: 2000 } });
    await t.http.post("/api/pixelcollect/add").send({ event: "page_view" }).expect(200);
    expect((await t.http.post("/api/pixelcollect/add").send({}).expect(400)).body.msg).toBe("event is required");
  });
});
