import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, fetchMedia } from "../../../../tests/db-utils.ts";
import { startFakeReplicate, type FakeReplicate } from "../../../../tests/fixtures/fake-replicate.ts";
import {
  balanceOf,
  personAPhotos,
  registeredUser,
  replicateEnv,
  selfieFrames,
  startTrainingServer,
  TRAIN_WITHOUT_REVIEW,
  trainingSet,
} from "../../../../tests/training-utils.ts";
import { HOME_LINK_MESSAGES } from "../../contract/home-link.ts";
import { TRAINING_MESSAGES } from "../../contract/training.ts";
import { checkSafetensors } from "./weights.ts";

const TOKEN = "r8_test_token_0123456789";
const SECRET = `whsec_${Buffer.from("replicate-test-signing-key-0123").toString("base64")}`;

let fake: FakeReplicate;
let s: Awaited<ReturnType<typeof startTrainingServer>>;
let user: { token: string; userId: number };
let set: { cover_id: number; photo_ids: number[]; selfie_id: string };
let n = 0;

beforeAll(async () => {
  fake = await startFakeReplicate({ token: TOKEN, webhookSecret: SECRET });
  s = await startTrainingServer({ ...replicateEnv(fake, TOKEN, SECRET), ...TRAIN_WITHOUT_REVIEW });
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

const submit = (body: Record<string, unknown>, token = user.token) => s.http.post("/api/Training/submit").set("token", token).send(body);
const fresh = (extra: Record<string, unknown> = {}) => ({ name: "Me", home_link: `me-${Date.now().toString(36)}${n++}`, ...set, ...extra });
const webhookUrl = () => `${s.url}/api/Training/webhook/replicate`;
const model = (id: number) => s.db.characterModel.findUniqueOrThrow({ where: { id } });
const ledger = (id: number) => s.db.ledgerEntry.findMany({ where: { reference: `model:${id}` }, orderBy: { id: "asc" } });

async function started() {
  const before = await balanceOf(s, user.userId);
  const res = await submit(fresh());
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.data).toMatchObject({ status: "doing", cost: 5 });
  expect(await balanceOf(s, user.userId)).toBe(before - 5);
  const m = await model(res.body.data.id);
  const t = fake.trainings.get(m.trainerJobId!)!;
  return { id: m.id as number, t, before };
}

describe("submit -> webhook -> success", () => {
  it("builds the dataset, charges 5 credits once, follows progress and stores checked weights", async () => {
    const { id, t, before } = await started();
    expect(t.datasetImages).toBe(10);
    expect(t.input).toMatchObject({ trigger_word: (await model(id)).triggerWord });
    expect(t.destination).toBe("reverie/character-models");

    fake.progress(t.id, 40);
    expect((await fake.deliver(fake.delivery(t.id), webhookUrl())).status).toBe(200);
    expect((await model(id)).progress).toBe(40);

    fake.succeed(t.id);
    const success = fake.delivery(t.id);
    expect((await fake.deliver(success, webhookUrl())).status).toBe(200);
    const m = await model(id);
    expect(m).toMatchObject({ status: "success", progress: 100, baseModel: "black-forest-labs/FLUX.1-dev" });
    const stored = await s.services.storage.get(m.artifactKey!);
    expect(checkSafetensors(stored, 1e9).tensors).toBe(2);
    expect(await balanceOf(s, user.userId)).toBe(before - 5);

    // the same delivery again (Replicate retries, or someone replays it): nothing changes
    expect((await fake.deliver(success, webhookUrl())).status).toBe(200);
    expect((await model(id)).artifactKey).toBe(m.artifactKey);
    expect((await ledger(id)).map((e) => e.delta)).toEqual([-5]);

    const list = await s.http.get("/api/Generation/getLoraCharacterList?page=1&limit=10&status=success").set("token", user.token).expect(200);
    expect(list.body.data.list.find((x: any) => x.id === id)).toMatchObject({ name: "Me", status: "success", usable: true, progress: 100 });
    expect((await fetchMedia(s, list.body.data.list.find((x: any) => x.id === id).cover_url)).status).toBe(200);
  }, 120_000);

  it("refuses forged, re-signed and stale webhooks and changes nothing", async () => {
    const { id, t } = await started();
    fake.succeed(t.id);
    const forged = fake.delivery(t.id, { secret: `whsec_${Buffer.from("not-the-real-key").toString("base64")}` });
    expect((await fake.deliver(forged, webhookUrl())).status).toBe(400);
    const stale = fake.delivery(t.id, { ageSeconds: 600 });
    expect((await fake.deliver(stale, webhookUrl())).status).toBe(400);
    const tampered = fake.delivery(t.id);
    tampered.body = tampered.body.replace('"succeeded"', '"failed"');
    expect((await fake.deliver(tampered, webhookUrl())).status).toBe(400);
    const unsigned = fake.delivery(t.id);
    delete unsigned.headers["webhook-signature"];
    expect((await fake.deliver(unsigned, webhookUrl())).status).toBe(400);
    // a trainer that is not configured here has no webhook
    expect((await fake.deliver(fake.delivery(t.id), `${s.url}/api/Training/webhook/fal`)).status).toBe(404);
    expect(await model(id)).toMatchObject({ status: "doing", artifactKey: null });
    expect((await ledger(id)).map((e) => e.delta)).toEqual([-5]);
  }, 60_000);
});

describe("failure, cancel and time-out refund exactly once", () => {
  it("a failed training is refunded once, however often the failure is delivered", async () => {
    const { id, t, before } = await started();
    fake.fail(t.id);
    const d = fake.delivery(t.id);
    await Promise.all([fake.deliver(d, webhookUrl()), fake.deliver(d, webhookUrl()), fake.deliver(fake.delivery(t.id), webhookUrl())]);
    expect(await model(id)).toMatchObject({ status: "failed", error: "CUDA out of memory" });
    expect((await ledger(id)).map((e) => e.delta)).toEqual([-5, 5]);
    expect(await balanceOf(s, user.userId)).toBe(before);
  }, 60_000);

  it("cancel stops the training at Replicate and refunds once; a second cancel is refused", async () => {
    const { id, t, before } = await started();
    const [a, b] = await Promise.all([
      s.http.post("/api/Training/cancel").set("token", user.token).send({ id }),
      s.http.post("/api/Training/cancel").set("token", user.token).send({ id }),
    ]);
    // both may be answered (one moved the model, the other found it moved) or the second refused: never two refunds
    for (const r of [a, b]) expect([200, 409]).toContain(r.status);
    expect(fake.trainings.get(t.id)!.status).toBe("canceled");
    expect((await model(id)).status).toBe("failed");
    expect((await ledger(id)).map((e) => e.delta)).toEqual([-5, 5]);
    expect(await balanceOf(s, user.userId)).toBe(before);
    const again = await s.http.post("/api/Training/cancel").set("token", user.token).send({ id }).expect(409);
    expect(again.body.msg).toBe(TRAINING_MESSAGES.notCancellable);
    // the late "canceled" webhook changes nothing more
    await fake.deliver(fake.delivery(t.id), webhookUrl());
    expect((await ledger(id)).map((e) => e.delta)).toEqual([-5, 5]);
  }, 60_000);

  it("a training past its deadline is cancelled at the trainer, failed and refunded once by the poll", async () => {
    const { id, t, before } = await started();
    expect(await s.services.training.poll(id)).toBe("again");
    await s.db.characterModel.update({ where: { id }, data: { deadlineAt: new Date(Date.now() - 1000) } });
    expect(await Promise.all([s.services.training.poll(id), s.services.training.poll(id)])).toEqual(["done", "done"]);
    expect(fake.trainings.get(t.id)!.status).toBe("canceled");
    expect(await model(id)).toMatchObject({ status: "failed", error: "The training did not finish in time" });
    expect((await ledger(id)).map((e) => e.delta)).toEqual([-5, 5]);
    expect(await balanceOf(s, user.userId)).toBe(before);
  }, 60_000);

  it("without a webhook the poll finds the result; weights that fail their checks fail the model and refund it", async () => {
    const good = await started();
    fake.succeed(good.t.id);
    expect(await s.services.training.poll(good.id)).toBe("done");
    expect((await model(good.id)).status).toBe("success");

    const bad = await started();
    fake.succeed(bad.t.id, Buffer.from("this is not a safetensors file"));
    await fake.deliver(fake.delivery(bad.t.id), webhookUrl());
    const m = await model(bad.id);
    expect(m.status).toBe("failed");
    expect(m.error).toMatch(/failed its checks/);
    expect(m.artifactKey).toBeNull();
    expect((await ledger(bad.id)).map((e) => e.delta)).toEqual([-5, 5]);
  }, 90_000);

  it("a trainer that refuses the submission: 'Training submission failed', refunded", async () => {
    const before = await balanceOf(s, user.userId);
    fake.refuseNext();
    const res = await submit(fresh()).expect(502);
    expect(res.body.msg).toBe("Training submission failed");
    const m = await s.db.characterModel.findFirstOrThrow({ where: { userId: user.userId }, orderBy: { id: "desc" } });
    expect(m.status).toBe("failed");
    expect((await ledger(m.id)).map((e) => e.delta)).toEqual([-5, 5]);
    expect(await balanceOf(s, user.userId)).toBe(before);
  }, 60_000);
});

describe("submit rules", () => {
  it.each([
    ["9 photos", () => fresh({ photo_ids: set.photo_ids.slice(0, 9) }), "Please upload 10-20 training images"],
    ["21 photos", () => fresh({ photo_ids: [...set.photo_ids, ...set.photo_ids, 1].slice(0, 21) }), "You selected 21 images; at most 20 can be used"],
    ["no cover", () => fresh({ cover_id: undefined }), TRAINING_MESSAGES.coverRequired],
    ["no name", () => fresh({ name: "  " }), "Please input name"],
    ["no home link", () => fresh({ home_link: "" }), HOME_LINK_MESSAGES.required],
    ["a 2-character home link", () => fresh({ home_link: "ab" }), "Home link must be 3-20 characters"],
    ["a 21-character home link", () => fresh({ home_link: "a".repeat(21) }), "Home link must be 3-20 characters"],
    ["a reserved home link", () => fresh({ home_link: "Admin" }), HOME_LINK_MESSAGES.reserved],
    ["odd characters", () => fresh({ home_link: "me page" }), HOME_LINK_MESSAGES.characters],
    ["a photo twice", () => fresh({ photo_ids: [...set.photo_ids.slice(0, 9), set.photo_ids[0]] }), TRAINING_MESSAGES.photosDistinct],
  ])("%s gets its message and costs nothing", async (_name, body, msg) => {
    const before = await balanceOf(s, user.userId);
    const models = await s.db.characterModel.count();
    const res = await submit(body()).expect(400);
    expect(res.body.msg).toBe(msg);
    expect(await balanceOf(s, user.userId)).toBe(before);
    expect(await s.db.characterModel.count()).toBe(models);
  });

  it("home links are unique without regard to case", async () => {
    const link = `Taken${n++}`;
    await submit(fresh({ home_link: link })).expect(200);
    const res = await submit(fresh({ home_link: link.toLowerCase() })).expect(409);
    expect(res.body.msg).toBe(HOME_LINK_MESSAGES.taken);
    expect((await s.http.get(`/api/Training/homeLinkFree?home_link=${link.toUpperCase()}`).set("token", user.token).expect(200)).body.data.free).toBe(false);
  }, 60_000);

  it("a double click with one idempotency key trains and charges once", async () => {
    const before = await balanceOf(s, user.userId);
    const body = fresh({ idempotency_key: `k-${n++}` });
    const [a, b] = await Promise.all([submit(body), submit(body)]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body.data.id).toBe(b.body.data.id);
    expect(await balanceOf(s, user.userId)).toBe(before - 5);
  }, 60_000);

  it("without enough credits: 'Please get points first', nothing created", async () => {
    const poor = await registeredUser(s, 4);
    const own = await trainingSet(s, poor.token, await personAPhotos());
    const res = await submit({ name: "Poor", home_link: `poor${n++}`, ...own }, poor.token).expect(402);
    expect(res.body.msg).toBe("Please get points first");
    expect(await s.db.characterModel.count({ where: { userId: poor.userId } })).toBe(0);
    expect(await balanceOf(s, poor.userId)).toBe(4);
  }, 120_000);

  it("another user can neither see, cancel nor use someone's model, nor train on their uploads", async () => {
    const { id } = await started();
    const other = await registeredUser(s, 50);
    await s.http.get(`/api/Training/details?id=${id}`).set("token", other.token).expect(404);
    await s.http.post("/api/Training/cancel").set("token", other.token).send({ id }).expect(404);
    await s.http.post("/api/Generation/roleVideoSubmit").set("token", other.token).send({ role_id: id, duration: 2 }).expect(404);
    const mine = (await s.http.get("/api/Generation/getLoraCharacterList").set("token", other.token).expect(200)).body.data;
    expect(mine.total).toBe(0);
    // someone else's uploads and selfie do not exist for this user
    await submit({ name: "Thief", home_link: `thief${n++}`, ...set }, other.token).expect(404);
    const ownPhotos = await trainingSet(s, other.token, await personAPhotos());
    const res = await submit({ name: "Thief", home_link: `thief${n++}`, ...ownPhotos, selfie_id: set.selfie_id }, other.token).expect(400);
    expect(res.body.msg).toBe(TRAINING_MESSAGES.selfieRequired);
  }, 60_000);
});

describe("using a trained model in generation", () => {
  it("passes the LoRA to the engine job (owner only); the local engine says it did not apply it; a taken-down model is unusable and its files are gone", async () => {
    const { id, t } = await started();
    const early = await s.http.post("/api/Generation/roleVideoSubmit").set("token", user.token).send({ role_id: id, duration: 2 }).expect(400);
    expect(early.body.msg).toBe(TRAINING_MESSAGES.notReady);
    fake.succeed(t.id);
    await fake.deliver(fake.delivery(t.id), webhookUrl());
    const m = await model(id);

    const video = await s.http.post("/api/Generation/roleVideoSubmit").set("token", user.token).send({ role_id: id, duration: 2, strength: 0.8 }).expect(200);
    const image = await s.http.post("/api/Generation/textPicSubmit").set("token", user.token).send({ role_id: id, prompt: "at the beach" }).expect(200);
    for (const taskId of [video.body.data.id, image.body.data.id]) {
      const task = await s.db.generationTask.findUniqueOrThrow({ where: { id: taskId } });
      expect((task.input as any).lora).toMatchObject({ modelId: id, path: m.artifactKey, triggerWord: m.triggerWord });
      const d = (await s.http.get(`/api/Generation/picVideoSubmitDetails?id=${taskId}`).set("token", user.token).expect(200)).body.data;
      expect(d.label).toBe("local draft, character model not applied");
    }
    expect(((await s.db.generationTask.findUniqueOrThrow({ where: { id: video.body.data.id } })).input as any).lora.strength).toBe(0.8);
    await s.http.post("/api/Generation/textPicSubmit").set("token", user.token).send({ role_id: id, prompt: "x", strength: 2 }).expect(400);

    await s.services.training.takedown(
      (await s.db.staff.create({ data: { username: `mod${n++}`, passwordHash: "x", totpSecret: "x", roles: ["moderator"] } })).id,
      id,
      "test takedown",
    );
    expect(await s.services.storage.exists(m.artifactKey!)).toBe(false);
    const after = await s.http.post("/api/Generation/roleVideoSubmit").set("token", user.token).send({ role_id: id, duration: 2 }).expect(400);
    expect(after.body.msg).toBe(TRAINING_MESSAGES.notUsable);
    const audit = await s.db.auditLog.findFirst({ where: { resource: "CharacterModel", resourceId: String(id) } });
    expect(audit).toMatchObject({ action: "takedown", reason: "test takedown" });
  }, 90_000);
});

describe("no trainer configured", () => {
  it("says training is not available before anything is charged", async () => {
    const t = await createTestApp();
    try {
      const status = await t.http.get("/api/Training/status").expect(200);
      expect(status.body.data).toMatchObject({ available: false, message: "Training is not available on this server yet", price: 5 });
      const u = await registeredUser(t, 20);
      const res = await t.http
        .post("/api/Training/submit")
        .set("token", u.token)
        .send({ name: "Me", home_link: "mehere", cover_id: 1, photo_ids: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], selfie_id: "8d0f2a4e-7c1b-4a8e-9f3e-2b6d5c4a1e90" })
        .expect(503);
      expect(res.body.msg).toBe("Training is not available on this server yet");
      const selfie = await t.http
        .post("/api/Training/selfie")
        .set("token", u.token)
        .send({ frames: await selfieFrames() })
        .expect(503);
      expect(selfie.body.msg).toBe("Training is not available on this server yet");
      expect(await balanceOf(t, u.userId)).toBe(20);
      expect(await t.db.characterModel.count()).toBe(0);
    } finally {
      await t.close();
    }
  });
});
