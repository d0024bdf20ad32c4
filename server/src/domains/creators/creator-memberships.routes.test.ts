import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, fetchMedia, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { photo } from "../../../../tests/fixtures/media.ts";
import { staffMember } from "../../../../tests/staff-utils.ts";
import { registeredUser, uploadImage } from "../../../../tests/training-utils.ts";
import { CREATOR_MEMBERSHIP_PERIOD_DAYS, CREATOR_MESSAGES as M } from "../../contract/creators.ts";
import { localMediaSigner } from "../../storage/local.storage.ts";
import { mediaUrlSecret } from "../../storage/storage.ts";

let t: TestApp;
let n = 0;

beforeAll(async () => {
  t = await createTestApp();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const balance = async (userId: number) => (await t.db.user.findUniqueOrThrow({ where: { id: userId } })).points;
const grant = (userId: number, amount: number) =>
  t.services.credits.grant({ userId, amount, reason: "test", idempotencyKey: `test:${userId}:${Math.random()}` });
const post = (token: string | null, what: string, body: Record<string, unknown>) => {
  const req = t.http.post(`/api/Subscribe/${what}`);
  return (token ? req.set("token", token) : req).send(body);
};
const info = (link: string, token?: string) => {
  const req = t.http.get("/api/Subscribe/getHomeLinkInfo").query({ home_link: link });
  return token ? req.set("token", token) : req;
};
const join = (token: string, link: string) => post(token, "joinMembership", { home_link: link });
const membershipOf = (userId: number) => t.db.creatorMembership.findFirstOrThrow({ where: { fanUserId: userId } });
/** The fan's period ends now (instead of in 30 days), so the next sweep finds it due. */
const periodEnds = (userId: number) => t.db.creatorMembership.updateMany({ where: { fanUserId: userId }, data: { paidThrough: new Date(Date.now() - 1000) } });
const sweep = () => t.services.creators.renewMemberships();

/** A creator with a published page offering a membership at `price` credits a period (null: none). */
async function creatorPage(link: string, price: number | null = 10) {
  const who = await registeredUser(t);
  const cover = await uploadImage(t, who.token, await photo(320, 400));
  const model = await t.db.characterModel.create({
    data: { userId: who.userId, name: `Model ${++n}`, homeLink: link, coverUploadId: cover, status: "success", cost: 5, triggerWord: "rvr" },
  });
  await post(who.token, "publishPage", { role_id: model.id, membership_price: price }).expect(200);
  return who;
}

describe("paid creator memberships", () => {
  it("charges the first period on joining, renews once per period (a double sweep once), and a cancel stops the next renewal", async () => {
    const c = await creatorPage("Member1", 10);
    const fan = await visitor(t);
    await grant(fan.userId, 100);
    const joined = await join(fan.token, "member1").expect(200);
    expect(joined.body.data).toMatchObject({ status: "active", price: 10, member: true });
    const through = new Date(joined.body.data.paid_through).getTime();
    expect(Math.abs(through - Date.now() - CREATOR_MEMBERSHIP_PERIOD_DAYS * 86_400_000)).toBeLessThan(60_000);
    expect([await balance(fan.userId), await balance(c.userId)]).toEqual([90, 10]);
    // nothing is due yet
    expect(await sweep()).toMatchObject({ renewed: 0 });

    for (let period = 2; period <= 4; period++) {
      await periodEnds(fan.userId);
      // two sweeps at once (two API instances): one renewal
      const [a, b] = await Promise.all([sweep(), sweep()]);
      expect(a.renewed + b.renewed).toBe(1);
      expect(await membershipOf(fan.userId)).toMatchObject({ status: "active", period });
      expect([await balance(fan.userId), await balance(c.userId)]).toEqual([100 - 10 * period, 10 * period]);
    }
    const m = await membershipOf(fan.userId);
    expect(await t.db.ledgerEntry.count({ where: { reference: `creator_membership:${m.id}`, reason: "creator_membership" } })).toBe(4);
    expect(await t.db.ledgerEntry.findUnique({ where: { idempotencyKey: `creator-membership:${m.id}:period:4:charge` } })).toMatchObject({
      userId: fan.userId,
      delta: -10,
    });
    expect(await t.db.ledgerEntry.findUnique({ where: { idempotencyKey: `creator-membership:${m.id}:period:4:earn` } })).toMatchObject({
      userId: c.userId,
      delta: 10,
    });

    // cancelled: still a member until the paid period ends, then it ends without a fifth charge
    const cancelled = await post(fan.token, "cancelMembership", { home_link: "Member1" }).expect(200);
    expect(cancelled.body.data).toMatchObject({ status: "cancelled", member: true });
    expect((await info("Member1", fan.token)).body.data.membership).toMatchObject({ status: "cancelled", member: true });
    await periodEnds(fan.userId);
    expect(await sweep()).toEqual({ renewed: 0, ended: 1 });
    expect((await info("Member1", fan.token)).body.data).toMatchObject({ membership: { status: "ended", member: false } });
    expect([await balance(fan.userId), await balance(c.userId)]).toEqual([60, 40]);
    expect(await t.services.credits.findLedgerMismatches([fan.userId, c.userId])).toEqual([]);
  });

  it("ends a membership the fan's balance cannot renew, never taking the balance below zero", async () => {
    const c = await creatorPage("Member2", 10);
    const fan = await visitor(t);
    await grant(fan.userId, 15);
    await join(fan.token, "Member2").expect(200);
    await periodEnds(fan.userId);
    const [a, b] = await Promise.all([sweep(), sweep()]);
    expect(a.ended + b.ended).toBe(1);
    expect(a.renewed + b.renewed).toBe(0);
    expect(await membershipOf(fan.userId)).toMatchObject({ status: "ended", period: 1 });
    expect([await balance(fan.userId), await balance(c.userId)]).toEqual([5, 10]);
    // joining again with too little is refused and changes nothing; with enough it starts the next period, once
    expect((await join(fan.token, "Member2")).body.msg).toBe("Please get points first");
    await grant(fan.userId, 5);
    const again = await Promise.all(Array.from({ length: 20 }, () => join(fan.token, "Member2")));
    expect(again.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(await membershipOf(fan.userId)).toMatchObject({ status: "active", period: 2 });
    expect([await balance(fan.userId), await balance(c.userId)]).toEqual([0, 20]);
  });

  it("charges once for 20 concurrent joins, and refuses one's own page, a page without a membership and a short balance", async () => {
    const c = await creatorPage("Member3", 25);
    const fan = await visitor(t);
    await grant(fan.userId, 60);
    const answers = await Promise.all(Array.from({ length: 20 }, () => join(fan.token, "Member3")));
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(await t.db.creatorMembership.count({ where: { fanUserId: fan.userId } })).toBe(1);
    expect([await balance(fan.userId), await balance(c.userId)]).toEqual([35, 25]);
    expect((await info("Member3", fan.token)).body.data).toMatchObject({ membership_price: 25, membership: { status: "active", member: true } });
    // a cancelled membership still paid resumes without a charge
    await post(fan.token, "cancelMembership", { home_link: "Member3" }).expect(200);
    expect((await join(fan.token, "Member3").expect(200)).body.data).toMatchObject({ status: "active" });
    expect(await balance(fan.userId)).toBe(35);

    expect((await join(c.token, "Member3")).body).toMatchObject({ code: 400, msg: M.ownMembership });
    await creatorPage("NoMembership", null);
    expect((await join(fan.token, "NoMembership")).body).toMatchObject({ code: 400, msg: M.noMembership });
    const poor = await visitor(t);
    await grant(poor.userId, 24);
    const short = await Promise.all(Array.from({ length: 5 }, () => join(poor.token, "Member3")));
    expect(short.every((r) => r.body.msg === "Please get points first")).toBe(true);
    expect(await t.db.creatorMembership.count({ where: { fanUserId: poor.userId } })).toBe(0);
    expect(await balance(poor.userId)).toBe(24);
    // cancelling what one does not have
    expect((await post(poor.token, "cancelMembership", { home_link: "Member3" })).body).toMatchObject({ code: 400, msg: M.notMember });
  });

  it("moves a guest's membership to the account it signs in to", async () => {
    await creatorPage("MemberMerge", 5);
    const guest = await visitor(t);
    await grant(guest.userId, 5);
    await join(guest.token, "MemberMerge").expect(200);
    const account = await registeredUser(t);
    await t.db.$transaction((tx) => t.services.creators.moveToUser(tx, guest.userId, account.userId));
    expect((await info("MemberMerge", account.token)).body.data.membership).toMatchObject({ status: "active", member: true });
    expect((await info("MemberMerge", guest.token)).body.data.membership).toBeNull();
  });

  it("validates the membership price the creator sets, and stopping the offer ends running memberships at their period's end", async () => {
    const c = await creatorPage("Member4", 8);
    for (const bad of [0, -5, 100_001, 2.5, "lots"]) {
      const res = await post(c.token, "updatePage", { membership_price: bad });
      expect(res.body.code, String(bad)).toBe(400);
      expect(res.body.msg).toMatch(/A membership costs 1 to 100000 credits a month/);
    }
    const fan = await visitor(t);
    await grant(fan.userId, 50);
    await join(fan.token, "Member4").expect(200);
    // a lower price applies from the next renewal
    await post(c.token, "updatePage", { membership_price: 5 }).expect(200);
    await periodEnds(fan.userId);
    await sweep();
    expect(await balance(fan.userId)).toBe(37);
    expect((await post(c.token, "updatePage", { membership_price: null }).expect(200)).body.data.membership_price).toBeNull();
    await periodEnds(fan.userId);
    expect(await sweep()).toMatchObject({ renewed: 0, ended: 1 });
    expect(await balance(fan.userId)).toBe(37);
  });
});

describe("the content library and members-only media", () => {
  /** A finished creation of the user's with a real file in storage; answers the task and the bytes. */
  async function creation(userId: number, expiresAt: Date | null = null) {
    const bytes = await photo(300, 400);
    const key = `u/${userId}/results/item-${++n}.jpg`;
    await t.services.storage.put(key, bytes, "image/jpeg");
    const task = await t.db.generationTask.create({
      data: { userId, mode: "text_to_image", engine: "local", status: "succeeded", cost: 1, input: {}, outputKey: key, expiresAt },
    });
    return { task, bytes };
  }
  const publishItem = (token: string, taskId: number, visibility: "public" | "members") => post(token, "publishItem", { task_id: taskId, visibility });
  /** A members-only file as the app (its token) or a <video> element (its cookies, its Range header) asks for it. */
  const withToken = async (url: string, token?: string, o: { range?: string; cookie?: string } = {}) => {
    const u = new URL(url, "http://any-host");
    let req = t.http.get(u.pathname + u.search);
    if (token) req = req.set("token", token);
    if (o.range) req = req.set("Range", o.range);
    if (o.cookie) req = req.set("Cookie", o.cookie);
    const res = await req.buffer(true).parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on("data", (b: Buffer) => chunks.push(b));
      r.on("end", () => cb(null, Buffer.concat(chunks)));
    });
    return { status: res.status, body: res.body as Buffer, headers: res.headers as Record<string, string> };
  };
  type Item = { id: number; visibility: string; locked: boolean; image_url: string | null };

  it("shows public items to everyone, members-only ones locked to non-members, and serves their media only to members", async () => {
    const c = await creatorPage("Library1", 10);
    const open = await creation(c.userId);
    const closed = await creation(c.userId);
    await publishItem(c.token, open.task.id, "public").expect(200);
    const published = await Promise.all(Array.from({ length: 5 }, () => publishItem(c.token, closed.task.id, "members")));
    expect(published.every((r) => r.status === 200)).toBe(true);
    // someone else's creation, or an unfinished one, cannot be published
    const fan = await visitor(t);
    const foreign = await creation(fan.userId);
    expect((await publishItem(c.token, foreign.task.id, "public")).body).toMatchObject({ code: 400, msg: M.publishNotYours });
    expect((await publishItem(fan.token, foreign.task.id, "public")).status).toBe(403);

    // a stranger and a non-member: the public item with its media, the members-only one locked without any URL
    for (const token of [undefined, fan.token]) {
      const page = (await info("Library1", token).expect(200)).body.data;
      expect(page).toMatchObject({ library_total: 2, library_locked: 1 });
      const [members, pub] = page.library as Item[];
      expect(pub).toMatchObject({ visibility: "public", locked: false });
      expect((await fetchMedia(t, pub.image_url!)).body.equals(open.bytes)).toBe(true);
      expect(members).toMatchObject({ visibility: "members", locked: true, image_url: null, poster_url: null, video_url: null });
      expect(JSON.stringify(page)).not.toContain(closed.task.outputKey!);
    }

    // the creator always sees their own
    const own = (await info("Library1", c.token)).body.data.library as Item[];
    expect(own[0]).toMatchObject({ visibility: "members", locked: false });
    expect((await withToken(own[0].image_url!, c.token)).body.equals(closed.bytes)).toBe(true);

    // a member gets the real bytes through a URL signed for them
    await grant(fan.userId, 10);
    await join(fan.token, "Library1").expect(200);
    const url = ((await info("Library1", fan.token)).body.data.library as Item[])[0].image_url!;
    expect(url).toMatch(/^\/api\/Subscribe\/libraryMedia\?/);
    const got = await withToken(url, fan.token);
    expect(got.status).toBe(200);
    expect(got.body.equals(closed.bytes)).toBe(true);

    // the same signed path: unauthenticated, or as another (non-member) account, is refused
    const other = await visitor(t);
    expect((await withToken(url)).status).toBe(404);
    expect((await withToken(url, other.token)).status).toBe(404);
    // a URL the non-member changes to name themselves no longer matches its signature
    expect((await withToken(url.replace(`viewer=${fan.userId}`, `viewer=${other.userId}`), other.token)).status).toBe(404);
    // a tampered signature, a moved expiry, another item
    const u = new URL(url, "http://h");
    const tampered = new URL(u);
    tampered.searchParams.set("sig", `${u.searchParams.get("sig")!.slice(0, -2)}xx`);
    expect((await withToken(tampered.pathname + tampered.search, fan.token)).status).toBe(404);
    const later = new URL(u);
    later.searchParams.set("expires", String(Number(u.searchParams.get("expires")) + 3600));
    expect((await withToken(later.pathname + later.search, fan.token)).status).toBe(404);
    const elsewhere = new URL(u);
    elsewhere.searchParams.set("item", String(Number(u.searchParams.get("item")) - 1));
    expect((await withToken(elsewhere.pathname + elsewhere.search, fan.token)).status).toBe(404);
    // an expired one, even correctly signed by the server
    const signer = localMediaSigner(mediaUrlSecret(t.config));
    const past = Math.floor(Date.now() / 1000) - 10;
    const subject = `creator-library:${u.searchParams.get("item")}:main:viewer:${fan.userId}`;
    const expired = new URL(u);
    expired.searchParams.set("expires", String(past));
    expired.searchParams.set("sig", signer.sign(subject, past));
    expect((await withToken(expired.pathname + expired.search, fan.token)).status).toBe(404);
    // nor does a members-only signature open the plain media route
    expect(
      (await fetchMedia(t, `/api/media/file?key=${encodeURIComponent(subject)}&expires=${u.searchParams.get("expires")}&sig=${u.searchParams.get("sig")}`))
        .status,
    ).toBe(404);

    // cancelled but paid through: still a member; once it has ended, the very same URL is refused
    await post(fan.token, "cancelMembership", { home_link: "Library1" }).expect(200);
    expect((await withToken(url, fan.token)).status).toBe(200);
    await periodEnds(fan.userId);
    await sweep();
    expect((await withToken(url, fan.token)).status).toBe(404);
    expect(((await info("Library1", fan.token)).body.data.library as Item[])[0]).toMatchObject({ locked: true, image_url: null });
  });

  it("unpublishes an item (only the creator's own), and an underage report on a published creation takes it off the page at once", async () => {
    const c = await creatorPage("Library2", 10);
    const a = await creation(c.userId);
    const b = await creation(c.userId);
    const itemA = (await publishItem(c.token, a.task.id, "members").expect(200)).body.data;
    await publishItem(c.token, b.task.id, "public").expect(200);
    const other = await creatorPage("Library2b", 10);
    expect((await post(other.token, "unpublishItem", { id: itemA.id })).status).toBe(404);
    const url = ((await info("Library2", c.token)).body.data.library as Item[]).find((i) => i.id === itemA.id)!.image_url!;
    await post(c.token, "unpublishItem", { id: itemA.id }).expect(200);
    expect((await withToken(url, c.token)).status).toBe(404);
    expect((await info("Library2")).body.data).toMatchObject({ library_total: 1, library_locked: 0 });

    // the public item is not in the home gallery, yet any fan can report it; underage suspends it before anyone looks
    const fan = await visitor(t);
    await t.http.post("/api/report").set("token", fan.token).send({ target_type: "task", target_id: b.task.id, reason: "underage" }).expect(200);
    expect((await t.db.generationTask.findUniqueOrThrow({ where: { id: b.task.id } })).state).toBe("suspended");
    expect((await info("Library2")).body.data.library).toEqual([]);
    // a creation on no page stays private to its owner
    const hidden = await creation(c.userId);
    expect((await t.http.post("/api/report").set("token", fan.token).send({ target_type: "task", target_id: hidden.task.id, reason: "underage" })).status).toBe(
      404,
    );
    // the page itself is reportable by the id its view carries; underage hides it at once
    const pageId = (await info("Library2")).body.data.id;
    await t.http.post("/api/report").send({ target_type: "creator_page", target_id: pageId, reason: "underage" }).expect(200);
    expect((await info("Library2").expect(404)).body.msg).toBe(M.domainNotFound);
  });

  it("keeps a published creation from the results' expiry while it is on the page, and expires it normally once taken off", async () => {
    const c = await creatorPage("Kept1", 10);
    const hour = () => new Date(Date.now() + 3600_000);
    const task = (id: number) => t.db.generationTask.findUniqueOrThrow({ where: { id } });
    const published = await creation(c.userId, hour());
    const unpublished = await creation(c.userId, hour());
    const item = (await publishItem(c.token, published.task.id, "public").expect(200)).body.data;
    expect((await task(published.task.id)).expiresAt).toBeNull();

    // the results' lifetime passes: the sweep expires the creation on no page, not the published one
    await t.db.generationTask.update({ where: { id: unpublished.task.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await t.services.generation.expireResults();
    expect((await task(unpublished.task.id)).status).toBe("expired");
    expect(await t.services.storage.exists(unpublished.task.outputKey!)).toBe(false);
    expect((await task(published.task.id)).status).toBe("succeeded");
    expect(await t.services.storage.exists(published.task.outputKey!)).toBe(true);
    const shown = (await info("Kept1").expect(200)).body.data.library as Item[];
    expect(shown.map((i) => i.id)).toEqual([item.id]);
    expect((await fetchMedia(t, shown[0].image_url!)).body.equals(published.bytes)).toBe(true);
    // an expired creation cannot be published
    expect((await publishItem(c.token, unpublished.task.id, "public")).body).toMatchObject({ code: 400, msg: M.publishNotYours });

    // taken off the page, it expires like a fresh result: a full lifetime from now, then the sweep deletes it
    await post(c.token, "unpublishItem", { id: item.id }).expect(200);
    const lifetime = (await task(published.task.id)).expiresAt!.getTime() - Date.now();
    expect(Math.abs(lifetime - t.config.GENERATION_RESULT_TTL_HOURS * 3600_000)).toBeLessThan(60_000);
    await t.db.generationTask.update({ where: { id: published.task.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await t.services.generation.expireResults();
    expect((await task(published.task.id)).status).toBe("expired");
    expect(await t.services.storage.exists(published.task.outputKey!)).toBe(false);

    // a published creation its owner deletes from their results leaves the page and expires normally too
    const deleted = await creation(c.userId, hour());
    await publishItem(c.token, deleted.task.id, "members").expect(200);
    await t.http.post("/api/Generation/deleteTask").set("token", c.token).send({ id: deleted.task.id }).expect(200);
    expect((await task(deleted.task.id)).expiresAt).not.toBeNull();
  });

  it("streams a members-only video in ranges to a member's <video> element (token or media pass), and to no one else", async () => {
    const c = await creatorPage("Stream1", 10);
    const bytes = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7) % 251));
    const key = `u/${c.userId}/results/clip-${++n}.mp4`;
    await t.services.storage.put(key, bytes, "video/mp4");
    const task = await t.db.generationTask.create({
      data: { userId: c.userId, mode: "text_to_video", engine: "local", status: "succeeded", cost: 1, input: {}, outputKey: key },
    });
    await publishItem(c.token, task.id, "members").expect(200);
    const fan = await visitor(t);
    await grant(fan.userId, 10);
    await join(fan.token, "Stream1").expect(200);
    const url = ((await info("Stream1", fan.token)).body.data.library as { video_url: string }[])[0].video_url;

    // the first bytes a player asks for, a seek into the middle, an open end, a suffix
    const first = await withToken(url, fan.token, { range: "bytes=0-1023" });
    expect(first.status).toBe(206);
    expect(first.headers).toMatchObject({
      "content-range": `bytes 0-1023/${bytes.length}`,
      "accept-ranges": "bytes",
      "content-length": "1024",
      "content-type": "video/mp4",
      "cache-control": "no-store",
    });
    expect(first.body.equals(bytes.subarray(0, 1024))).toBe(true);
    const middle = await withToken(url, fan.token, { range: "bytes=150000-150099" });
    expect(middle.body.equals(bytes.subarray(150_000, 150_100))).toBe(true);
    const tail = await withToken(url, fan.token, { range: "bytes=199000-" });
    expect([tail.status, tail.headers["content-range"]]).toEqual([206, `bytes 199000-199999/${bytes.length}`]);
    expect(tail.body.equals(bytes.subarray(199_000))).toBe(true);
    expect((await withToken(url, fan.token, { range: "bytes=-500" })).body.equals(bytes.subarray(-500))).toBe(true);
    // no range: the whole file, saying ranges are welcome
    const whole = await withToken(url, fan.token);
    expect([whole.status, whole.headers["accept-ranges"]]).toEqual([200, "bytes"]);
    expect(whole.body.equals(bytes)).toBe(true);
    // a range past the end is 416 with the file's size; a malformed one gets the whole file
    const beyond = await withToken(url, fan.token, { range: `bytes=${bytes.length + 10}-` });
    expect([beyond.status, beyond.headers["content-range"]]).toEqual([416, `bytes */${bytes.length}`]);
    expect((await withToken(url, fan.token, { range: "lines=1-2" })).status).toBe(200);

    // a <video> element sends no token: the viewer's media pass (a cookie only this route receives) stands for it
    expect((await withToken(url, undefined, { range: "bytes=0-99" })).status).toBe(404);
    const passed = await t.http.post("/api/Subscribe/mediaPass").set("token", fan.token).expect(200);
    const setCookie = String(passed.headers["set-cookie"]);
    expect(setCookie).toMatch(/reverie_media_pass=.+; Max-Age=\d+; Path=\/api\/Subscribe\/libraryMedia; Expires=.+; HttpOnly; SameSite=Lax/);
    const pass = setCookie.split(";")[0];
    const streamed = await withToken(url, undefined, { range: "bytes=0-99", cookie: pass });
    expect(streamed.status).toBe(206);
    expect(streamed.body.equals(bytes.subarray(0, 100))).toBe(true);
    expect((await t.http.post("/api/Subscribe/mediaPass")).status).toBe(401);

    // a non-member with the same URL, by token or with their own pass, a forged pass: still 404, ranged or not
    const other = await visitor(t);
    expect((await withToken(url, other.token, { range: "bytes=0-99" })).status).toBe(404);
    const otherPass = String((await t.http.post("/api/Subscribe/mediaPass").set("token", other.token)).headers["set-cookie"]).split(";")[0];
    expect((await withToken(url, undefined, { range: "bytes=0-99", cookie: otherPass })).status).toBe(404);
    const [viewer, session, expires, sig] = pass.split("=")[1].split(".");
    expect((await withToken(url, undefined, { cookie: `reverie_media_pass=${viewer}.${session}.${Number(expires) + 60}.${sig}` })).status).toBe(404);
    // once the membership has ended, the member's own pass opens nothing either
    await post(fan.token, "cancelMembership", { home_link: "Stream1" }).expect(200);
    await periodEnds(fan.userId);
    await sweep();
    expect((await withToken(url, undefined, { range: "bytes=0-99", cookie: pass })).status).toBe(404);
    expect((await withToken(url, fan.token, { range: "bytes=0-99" })).status).toBe(404);
  });

  it("pages through a library of 35 items (SPEC page sizes), members-only ones locked past the first page too, and tells the creator how each creation is published", async () => {
    const c = await creatorPage("Paged1", 10);
    const key = `u/${c.userId}/results/paged-${++n}.jpg`;
    await t.services.storage.put(key, await photo(64, 64), "image/jpeg");
    await t.db.generationTask.createMany({
      data: Array.from({ length: 36 }, () => ({
        userId: c.userId,
        mode: "text_to_image" as const,
        engine: "local",
        status: "succeeded" as const,
        cost: 1,
        input: {},
        outputKey: key,
      })),
    });
    const tasks = await t.db.generationTask.findMany({ where: { userId: c.userId }, orderBy: { id: "asc" } });
    // the oldest 5 members-only, the next 30 public, the newest not published
    for (const [i, task] of tasks.slice(0, 35).entries()) await publishItem(c.token, task.id, i < 5 ? "members" : "public").expect(200);
    const library = (token: string | undefined, page: number, limit = 20) => {
      const req = t.http.get("/api/Subscribe/library").query({ home_link: "paged1", page, limit });
      return token ? req.set("token", token) : req;
    };

    const first = (await info("Paged1").expect(200)).body.data;
    expect([first.library.length, first.library_total, first.library_locked]).toEqual([20, 35, 5]);
    const second = (await library(undefined, 2).expect(200)).body.data;
    expect(second).toMatchObject({ total: 35, locked: 5, page: 2, limit: 20 });
    expect(second.list).toHaveLength(15);
    const ids = [...first.library, ...second.list].map((i: Item) => i.id);
    expect(new Set(ids).size).toBe(35);
    expect((second.list as Item[]).filter((i) => i.locked)).toHaveLength(5);
    expect((await library(undefined, 3).expect(200)).body.data.list).toEqual([]);
    // the creator's own later pages are unlocked
    expect(((await library(c.token, 2).expect(200)).body.data.list as Item[]).every((i) => !i.locked)).toBe(true);
    // other page sizes than SPEC.md §9's, a missing or unknown link
    expect((await library(undefined, 1, 24)).body).toMatchObject({ code: 400 });
    expect((await t.http.get("/api/Subscribe/library").query({ home_link: "no-such-page-x" })).status).toBe(404);
    expect((await t.http.get("/api/Subscribe/library").query({ page: 1 })).status).toBe(400);

    // the publish panel pages the creator's finished creations and asks how each is shown
    const finished = (await t.http.get("/api/Generation/uploadLists").set("token", c.token).query({ page: 2, limit: 20, finished: 1 }).expect(200)).body.data;
    expect([finished.total, finished.list.length]).toEqual([36, 16]);
    const asked = tasks
      .slice(0, 3)
      .map((x) => x.id)
      .concat(tasks[35].id);
    const mine = (
      await t.http
        .get("/api/Subscribe/myItems")
        .set("token", c.token)
        .query({ task_ids: asked.join(",") })
        .expect(200)
    ).body.data.list;
    expect(mine.map((i: { task_id: number; visibility: string }) => [i.task_id, i.visibility]).sort()).toEqual(
      tasks
        .slice(0, 3)
        .map((x) => [x.id, "members"])
        .sort(),
    );
    // another creator learns nothing of these creations; more than a page of ids is refused
    const other = await creatorPage("Paged2", 10);
    expect(
      (
        await t.http
          .get("/api/Subscribe/myItems")
          .set("token", other.token)
          .query({ task_ids: asked.join(",") })
          .expect(200)
      ).body.data.list,
    ).toEqual([]);
    expect(
      (
        await t.http
          .get("/api/Subscribe/myItems")
          .set("token", c.token)
          .query({ task_ids: Array.from({ length: 51 }, (_, i) => i + 1).join(",") })
      ).status,
    ).toBe(400);
    expect((await t.http.get("/api/Subscribe/myItems").set("token", c.token).query({ task_ids: "1,x" })).status).toBe(400);
  });

  it("lists a page's memberships and library items in the console, read-only, for those who may read creator pages", async () => {
    const c = await creatorPage("Console1", 10);
    const elsewhere = await creatorPage("Console2", 10);
    const [a, b, gone] = [await visitor(t), await visitor(t), await visitor(t)];
    for (const fan of [a, b, gone]) {
      await grant(fan.userId, 10);
      await join(fan.token, "Console1").expect(200);
    }
    await post(b.token, "cancelMembership", { home_link: "Console1" }).expect(200);
    await post(gone.token, "cancelMembership", { home_link: "Console1" }).expect(200);
    await t.db.creatorMembership.updateMany({ where: { fanUserId: gone.userId }, data: { paidThrough: new Date(Date.now() - 1000) } });
    await sweep();
    await grant(a.userId, 10);
    await join(a.token, "Console2").expect(200);
    const pub = await creation(c.userId);
    const members = await creation(c.userId);
    await publishItem(c.token, pub.task.id, "public").expect(200);
    await publishItem(c.token, members.task.id, "members").expect(200);
    await t.db.generationTask.update({ where: { id: members.task.id }, data: { state: "suspended" } });
    const pageId = (await t.db.creatorPage.findUniqueOrThrow({ where: { userId: c.userId } })).id;
    const list = (token: string, resource: string, filter: object) =>
      t.http
        .get(`/admin/api/${resource}`)
        .set("token", token)
        .query({ filter: JSON.stringify(filter) });

    const moderator = await staffMember(t, ["moderator"]);
    const all = await list(moderator.token, "creator-memberships", { creatorPageId: pageId }).expect(200);
    expect(all.headers["content-range"]).toBe("creator-memberships 0-2/3");
    const byFan = new Map((all.body as { fanUserId: number }[]).map((m) => [m.fanUserId, m]));
    expect(byFan.get(a.userId)).toMatchObject({ homeLink: "Console1", price: 10, period: 1, status: "active", endsAt: null });
    expect(byFan.get(a.userId)).toHaveProperty("renewsAt", expect.any(String));
    expect(byFan.get(b.userId)).toMatchObject({ status: "cancelled", renewsAt: null, endsAt: expect.any(String) });
    expect(byFan.get(gone.userId)).toMatchObject({ status: "ended", renewsAt: null, endsAt: expect.any(String) });
    const cancelled = await list(moderator.token, "creator-memberships", { creatorPageId: pageId, status: "cancelled" }).expect(200);
    expect((cancelled.body as { fanUserId: number }[]).map((m) => m.fanUserId)).toEqual([b.userId]);
    const one = (all.body as { id: number }[])[0].id;
    expect((await t.http.get(`/admin/api/creator-memberships/${one}`).set("token", moderator.token).expect(200)).body).toMatchObject({
      id: one,
      homeLink: "Console1",
    });
    expect((await list(moderator.token, "creator-memberships", { status: "paused" })).status).toBe(400);

    const items = (await list(moderator.token, "creator-library-items", { creatorPageId: pageId }).expect(200)).body as {
      taskId: number;
      visibility: string;
      creationState: string;
      thumbnailUrl: string | null;
      homeLink: string;
      createdAt: string;
    }[];
    expect(items.map((i) => [i.taskId, i.visibility, i.creationState])).toEqual([
      [members.task.id, "members", "suspended"],
      [pub.task.id, "public", "active"],
    ]);
    // moderators see the thumbnail of a suspended creation too: it is what they judge
    expect((await fetchMedia(t, items[0].thumbnailUrl!)).body.equals(members.bytes)).toBe(true);
    expect(items[0]).toMatchObject({ homeLink: "Console1", createdAt: expect.any(String) });
    expect(
      (
        await list(moderator.token, "creator-library-items", {
          creatorPageId: (await t.db.creatorPage.findUniqueOrThrow({ where: { userId: elsewhere.userId } })).id,
        }).expect(200)
      ).body,
    ).toEqual([]);

    // admins too; support (who decides payouts, not pages) and a signed-in fan do not
    const admin = await staffMember(t, ["admin"]);
    await list(admin.token, "creator-library-items", { creatorPageId: pageId }).expect(200);
    const support = await staffMember(t, ["support"]);
    expect((await list(support.token, "creator-memberships", { creatorPageId: pageId })).status).toBe(403);
    expect((await list(support.token, "creator-library-items", { creatorPageId: pageId })).status).toBe(403);
    expect((await list(a.token, "creator-memberships", { creatorPageId: pageId })).status).toBe(401);
  });
});
