import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { fetchMedia } from "../../../../tests/db-utils.ts";
import { startFakeReplicate, type FakeReplicate } from "../../../../tests/fixtures/fake-replicate.ts";
import { staffMember } from "../../../../tests/staff-utils.ts";
import {
  balanceOf,
  face,
  personAPhotos,
  registeredUser,
  replicateEnv,
  selfieFrames,
  startTrainingServer,
  trainingSet,
  uploadImage,
} from "../../../../tests/training-utils.ts";
import { screenReplay } from "../../../../tests/fixtures/replay.ts";
import { LIVENESS_MIN_SCORE } from "./consent.ts";
import { PHOTO_VERDICT_MESSAGES, TRAINING_MESSAGES } from "../../contract/training.ts";

/** Face checks on real photos (tests/fixtures/faces/SOURCES.md), the review queue and the consent record. */
const TOKEN = "r8_consent_token";
const SECRET = `whsec_${Buffer.from("consent-test-signing-key-000000").toString("base64")}`;
let fake: FakeReplicate;
let s: Awaited<ReturnType<typeof startTrainingServer>>;
let user: { token: string; userId: number };
let set: { cover_id: number; photo_ids: number[]; selfie_id: string };
let n = 0;

beforeAll(async () => {
  fake = await startFakeReplicate({ token: TOKEN, webhookSecret: SECRET });
  // the default TRAINING_REVIEW_AGE (25) and TRAINING_FACE_REVIEW: every set of the fixture person waits for review.
  // Upload screening (issue 19) would hold her photos as well; it is off here so that the holds tested are training's own.
  s = await startTrainingServer({ ...replicateEnv(fake, TOKEN, SECRET), SCREENING_REVIEW_AGE: "18" });
  user = await registeredUser(s, 100);
  set = await trainingSet(s, user.token, await personAPhotos());
}, 180_000);
afterAll(async () => {
  await s?.stop();
  await fake?.stop();
});
afterEach(async () => {
  expect(await s.services.credits.findLedgerMismatches()).toEqual([]);
});

const check = async (name: string) => {
  const upload_id = await uploadImage(s, user.token, await face(name));
  const res = await s.http.post("/api/Training/checkPhoto").set("token", user.token).send({ selfie_id: set.selfie_id, upload_id }).expect(200);
  return res.body.data;
};

describe("face checks on real photos", () => {
  it("the matching set passes: one face each, the selfie's", async () => {
    for (const id of set.photo_ids) {
      const r = (await s.http.post("/api/Training/checkPhoto").set("token", user.token).send({ selfie_id: set.selfie_id, upload_id: id }).expect(200)).body
        .data;
      expect(r, `upload ${id}`).toMatchObject({ verdict: "ok", faces: 1 });
      expect(r.similarity).toBeGreaterThanOrEqual(s.config.TRAINING_FACE_MATCH);
    }
  }, 60_000);

  it.each([
    ["a different person", "person-linda", "other_person"],
    ["another different person", "stock-emotions-b-2", "other_person"],
    ["a group photo", "group-1", "several_faces"],
    ["a photo with no face", "background", "no_face"],
  ])(
    "%s is refused with its message",
    async (_what, name, verdict) => {
      const r = await check(name);
      expect(r.verdict).toBe(verdict);
      expect(r.message).toBe(PHOTO_VERDICT_MESSAGES[verdict as keyof typeof PHOTO_VERDICT_MESSAGES]);
    },
    30_000,
  );

  it("a selfie needs one face in both frames and a turned head", async () => {
    const [front, turned] = await selfieFrames();
    const still = await s.http
      .post("/api/Training/selfie")
      .set("token", user.token)
      .send({ frames: [front, front] })
      .expect(400);
    expect(still.body.msg).toBe(TRAINING_MESSAGES.livenessFailed);
    const group = `data:image/jpeg;base64,${(await face("group-1")).toString("base64")}`;
    const crowd = await s.http
      .post("/api/Training/selfie")
      .set("token", user.token)
      .send({ frames: [front, group] })
      .expect(400);
    expect(crowd.body.msg).toBe(TRAINING_MESSAGES.selfieNoFace);
    // turned, but someone else in the second frame
    const stranger = `data:image/jpeg;base64,${(await face("stock-emotions-b-5")).toString("base64")}`;
    const swapped = await s.http
      .post("/api/Training/selfie")
      .set("token", user.token)
      .send({ frames: [turned, stranger] })
      .expect(400);
    expect(swapped.body.msg).toBe(TRAINING_MESSAGES.livenessFailed);
  }, 60_000);

  it("a selfie replayed from a screen is refused by the liveness model, though the head turns; the same shots live pass", async () => {
    const url = (b: Buffer) => `data:image/jpeg;base64,${b.toString("base64")}`;
    const [front, turned] = await Promise.all([face("stock-emotions-a-7"), face("stock-emotions-a-2")]);
    const replayed = await s.http
      .post("/api/Training/selfie")
      .set("token", user.token)
      .send({ frames: [url(await screenReplay(front)), url(await screenReplay(turned))] })
      .expect(400);
    expect(replayed.body.msg).toBe(TRAINING_MESSAGES.livenessFailed);
    const live = await s.http
      .post("/api/Training/selfie")
      .set("token", user.token)
      .send({ frames: [url(front), url(turned)] });
    expect(live.status, JSON.stringify(live.body)).toBe(200);
    const record = JSON.parse((await s.services.storage.get(`u/${user.userId}/consent/${live.body.data.selfie_id}/selfie.json`)).toString("utf8"));
    expect(record.live.every((x: number) => x >= LIVENESS_MIN_SCORE)).toBe(true);
    expect(record.real).toHaveLength(2);
  }, 60_000);

  it("submit refuses a set with someone else in it, photo by photo, and charges nothing", async () => {
    const before = await balanceOf(s, user.userId);
    const other = await uploadImage(s, user.token, await face("stock-emotions-b-5"));
    const res = await s.http
      .post("/api/Training/submit")
      .set("token", user.token)
      .send({ name: "Me", home_link: `mix${n++}`, ...set, photo_ids: [...set.photo_ids.slice(0, 9), other] })
      .expect(400);
    expect(res.body.msg).toBe(TRAINING_MESSAGES.photosRefused);
    const refused = res.body.data.photos.filter((p: any) => p.verdict !== "ok");
    expect(refused).toEqual([expect.objectContaining({ upload_id: other, verdict: "other_person", message: PHOTO_VERDICT_MESSAGES.other_person })]);
    expect(await balanceOf(s, user.userId)).toBe(before);
  }, 60_000);

  it("the cover photo is face-checked like the training photos: someone else, a group or no face is refused before any charge", async () => {
    const before = await balanceOf(s, user.userId);
    for (const [name, verdict] of [
      ["stock-emotions-b-5", "other_person"],
      ["group-1", "several_faces"],
      ["background", "no_face"],
    ] as const) {
      const cover_id = await uploadImage(s, user.token, await face(name));
      const res = await s.http
        .post("/api/Training/submit")
        .set("token", user.token)
        .send({ name: "Me", home_link: `cov${n++}`, ...set, cover_id })
        .expect(400);
      expect(res.body.msg).toBe(TRAINING_MESSAGES.coverRefused);
      expect(res.body.data.cover).toMatchObject({ upload_id: cover_id, verdict, message: PHOTO_VERDICT_MESSAGES[verdict] });
      expect(res.body.data.cover.box).toBeUndefined();
    }
    expect(await balanceOf(s, user.userId)).toBe(before);
    expect(await s.db.characterModel.count({ where: { homeLink: { startsWith: "cov" } } })).toBe(0);
  }, 60_000);

  it("near-duplicate photos are refused before any charge (dHash), each marked on its own", async () => {
    const before = await balanceOf(s, user.userId);
    const a5 = await uploadImage(s, user.token, await face("stock-emotions-a-5"));
    const a7 = await uploadImage(s, user.token, await face("stock-emotions-a-7"));
    const res = await s.http
      .post("/api/Training/submit")
      .set("token", user.token)
      .send({ name: "Me", home_link: `dup${n++}`, ...set, photo_ids: [...set.photo_ids.slice(0, 8), a5, a7] })
      .expect(400);
    expect(res.body.msg).toBe(TRAINING_MESSAGES.photosRefused);
    expect(res.body.data.photos.filter((p: any) => p.verdict !== "ok")).toEqual([
      expect.objectContaining({ upload_id: a7, verdict: "duplicate", message: PHOTO_VERDICT_MESSAGES.duplicate }),
    ]);
    expect(await balanceOf(s, user.userId)).toBe(before);
  }, 60_000);
});

describe("review queue and consent record", () => {
  it("a young-looking set waits for a moderator (charged, not trained); approve sends it to the trainer, audited", async () => {
    const before = await balanceOf(s, user.userId);
    const res = await s.http
      .post("/api/Training/submit")
      .set("token", user.token)
      .send({ name: "Held", home_link: `held${n++}`, ...set })
      .expect(200);
    expect(res.body.data.status).toBe("review");
    expect(await balanceOf(s, user.userId)).toBe(before - 5);
    expect(fake.trainings.size).toBe(0);

    const support = await staffMember(s, ["support"]);
    await s.http.get(`/admin/api/character-models/${res.body.data.id}`).set("token", support.token).expect(403);
    const mod = await staffMember(s, ["moderator"]);
    const queue = await s.http
      .get(`/admin/api/character-models?filter=${encodeURIComponent(JSON.stringify({ status: "review" }))}`)
      .set("token", mod.token)
      .expect(200);
    expect(queue.body.map((m: any) => m.id)).toContain(res.body.data.id);
    const record = (await s.http.get(`/admin/api/character-models/${res.body.data.id}`).set("token", mod.token).expect(200)).body;
    expect(record.consent).toMatchObject({ decision: "held" });
    expect(record.consent.minAge).toBeLessThan(25);
    expect(record.consent.selfieUrls).toHaveLength(2);
    expect((await fetchMedia(s, record.consent.selfieUrls[0])).status).toBe(200);
    expect(record.consent.photos).toHaveLength(10);
    expect(record.consent.photos[0].check).toMatchObject({ verdict: "ok", faces: 1 });

    const approved = await s.http
      .post(`/admin/api/character-models/${res.body.data.id}/review`)
      .set("token", mod.token)
      .send({ decision: "approve", reason: "adult, ID seen" })
      .expect(200);
    expect(approved.body).toMatchObject({ status: "doing", consent: { decision: "approved", reviewedBy: mod.staffId } });
    expect(fake.trainings.size).toBe(1);
    const audit = await s.db.auditLog.findFirst({ where: { resource: "CharacterModel", resourceId: String(res.body.data.id), action: "training_approve" } });
    expect(audit).toMatchObject({ staffId: mod.staffId, reason: "adult, ID seen" });
    await s.http.post(`/admin/api/character-models/${res.body.data.id}/review`).set("token", mod.token).send({ decision: "approve" }).expect(409);
  }, 120_000);

  it("reject needs a reason, fails the set and refunds it once", async () => {
    const before = await balanceOf(s, user.userId);
    const res = await s.http
      .post("/api/Training/submit")
      .set("token", user.token)
      .send({ name: "Held", home_link: `rej${n++}`, ...set })
      .expect(200);
    const mod = await staffMember(s, ["moderator"]);
    const url = `/admin/api/character-models/${res.body.data.id}/review`;
    expect((await s.http.post(url).set("token", mod.token).send({ decision: "reject" }).expect(400)).body.msg).toBe("Please enter a reason");
    const [a, b] = await Promise.all([
      s.http.post(url).set("token", mod.token).send({ decision: "reject", reason: "looks under 18" }),
      s.http.post(url).set("token", mod.token).send({ decision: "reject", reason: "looks under 18" }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect(await balanceOf(s, user.userId)).toBe(before);
    expect((await s.db.characterModel.findUniqueOrThrow({ where: { id: res.body.data.id } })).status).toBe("failed");
  }, 120_000);

  it("the owner can withdraw consent: the model is unusable and its files deleted", async () => {
    const res = await s.http
      .post("/api/Training/submit")
      .set("token", user.token)
      .send({ name: "Mine", home_link: `rev${n++}`, ...set })
      .expect(200);
    const before = await balanceOf(s, user.userId);
    await s.http.post("/api/Training/revoke").set("token", user.token).send({ id: res.body.data.id }).expect(200);
    const m = await s.db.characterModel.findUniqueOrThrow({ where: { id: res.body.data.id }, include: { consent: true } });
    expect(m).toMatchObject({ state: "removed", status: "failed" });
    expect(m.consent?.decision).toBe("revoked");
    // still waiting for review, so nothing was trained: the credits come back
    expect(await balanceOf(s, user.userId)).toBe(before + 5);
    const list = (await s.http.get("/api/Generation/getLoraCharacterList").set("token", user.token).expect(200)).body.data.list;
    expect(list.map((x: any) => x.id)).not.toContain(res.body.data.id);
  }, 60_000);

  it("a set whose weakest face match is below TRAINING_FACE_REVIEW waits for a moderator, however old everyone looks", async () => {
    const { TRAINING_REVIEW_AGE, TRAINING_FACE_REVIEW } = s.config;
    s.config.TRAINING_REVIEW_AGE = 18;
    try {
      // person A's photos match her selfie at 0.37-0.75: under the default 0.6, so a person looks at them
      const held = await s.http
        .post("/api/Training/submit")
        .set("token", user.token)
        .send({ name: "Weak", home_link: `weak${n++}`, ...set })
        .expect(200);
      expect(held.body.data.status).toBe("review");
      // the same set with the band off goes straight to the trainer: the hold came from the face match alone
      s.config.TRAINING_FACE_REVIEW = s.config.TRAINING_FACE_MATCH;
      const sent = await s.http
        .post("/api/Training/submit")
        .set("token", user.token)
        .send({ name: "Sent", home_link: `sent${n++}`, ...set })
        .expect(200);
      expect(sent.body.data.status).toBe("doing");
      // a stranger (person-lexi) clears the per-photo 0.36 against A's selfie: the band is what stops her set
      s.config.TRAINING_FACE_REVIEW = TRAINING_FACE_REVIEW;
      const lexi = await uploadImage(s, user.token, await face("person-lexi"));
      expect(
        (await s.http.post("/api/Training/checkPhoto").set("token", user.token).send({ selfie_id: set.selfie_id, upload_id: lexi }).expect(200)).body.data,
      ).toMatchObject({ verdict: "ok" });
      const mixed = await s.http
        .post("/api/Training/submit")
        .set("token", user.token)
        .send({ name: "Mixed", home_link: `lexi${n++}`, ...set, photo_ids: [...set.photo_ids.slice(0, 9), lexi] })
        .expect(200);
      expect(mixed.body.data.status).toBe("review");
    } finally {
      Object.assign(s.config, { TRAINING_REVIEW_AGE, TRAINING_FACE_REVIEW });
    }
  }, 60_000);
});
