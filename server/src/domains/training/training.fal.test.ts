import crypto from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeFal, type FakeFal } from "../../../../tests/fixtures/fake-fal.ts";
import { balanceOf, falEnv, personAPhotos, registeredUser, startTrainingServer, TRAIN_WITHOUT_REVIEW, trainingSet } from "../../../../tests/training-utils.ts";
import { checkSafetensors } from "./weights.ts";

const KEY = "fal-key-id:fal-key-secret";
let fake: FakeFal;
let s: Awaited<ReturnType<typeof startTrainingServer>>;
let user: { token: string; userId: number };
let set: { cover_id: number; photo_ids: number[]; selfie_id: string };
let n = 0;

beforeAll(async () => {
  fake = await startFakeFal({ key: KEY });
  s = await startTrainingServer({ ...falEnv(fake, KEY), ...TRAIN_WITHOUT_REVIEW });
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

const webhookUrl = () => `${s.url}/api/Training/webhook/fal`;
const model = (id: number) => s.db.characterModel.findUniqueOrThrow({ where: { id } });
const ledger = (id: number) => s.db.ledgerEntry.findMany({ where: { reference: `model:${id}` }, orderBy: { id: "asc" } });

async function started() {
  const res = await s.http
    .post("/api/Training/submit")
    .set("token", user.token)
    .send({ name: "Me", home_link: `fal-${Date.now().toString(36)}${n++}`, ...set });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const m = await model(res.body.data.id);
  const r = fake.requests.get(m.trainerJobId!)!;
  expect(r.app).toBe("fal-ai/flux-lora-fast-training");
  expect(r.webhook).toBe(webhookUrl());
  expect(r.datasetImages).toBe(10);
  expect(r.input.trigger_word).toBe(m.triggerWord);
  return { id: m.id, r };
}

describe("fal queue trainer", () => {
  it("submit -> ED25519-signed webhook -> success stores the checked weights; a replay changes nothing", async () => {
    const before = await balanceOf(s, user.userId);
    const { id, r } = await started();
    fake.succeed(r.id);
    const d = fake.delivery(r.id);
    expect((await fake.deliver(d, webhookUrl())).status).toBe(200);
    const m = await model(id);
    expect(m.status).toBe("success");
    expect(checkSafetensors(await s.services.storage.get(m.artifactKey!), 1e9).tensors).toBe(2);
    expect((await fake.deliver(d, webhookUrl())).status).toBe(200);
    expect((await model(id)).artifactKey).toBe(m.artifactKey);
    expect(await balanceOf(s, user.userId)).toBe(before - 5);
  }, 120_000);

  it("a signed delivery whose result fal could not serialise (payload null, payload_error) reads the result from the queue", async () => {
    const { id, r } = await started();
    fake.succeed(r.id);
    const d = fake.delivery(r.id, { unserialisable: true });
    expect(JSON.parse(d.body)).toMatchObject({ status: "OK", payload: null, payload_error: expect.any(String) });
    expect((await fake.deliver(d, webhookUrl())).status).toBe(200);
    const m = await model(id);
    expect(m.status).toBe("success");
    expect(checkSafetensors(await s.services.storage.get(m.artifactKey!), 1e9).tensors).toBe(2);
    expect((await ledger(id)).map((e) => e.delta)).toEqual([-5]);
  }, 60_000);

  it("refuses webhooks signed by another key, stale ones and ones naming another request", async () => {
    const { id, r } = await started();
    fake.succeed(r.id);
    const stranger = crypto.generateKeyPairSync("ed25519").privateKey;
    expect((await fake.deliver(fake.delivery(r.id, { withKey: stranger }), webhookUrl())).status).toBe(400);
    expect((await fake.deliver(fake.delivery(r.id, { ageSeconds: 900 }), webhookUrl())).status).toBe(400);
    const swapped = fake.delivery(r.id);
    swapped.headers["x-fal-webhook-request-id"] = crypto.randomUUID();
    expect((await fake.deliver(swapped, webhookUrl())).status).toBe(400);
    const tampered = fake.delivery(r.id);
    tampered.body = tampered.body.replace('"OK"', '"ERROR"');
    expect((await fake.deliver(tampered, webhookUrl())).status).toBe(400);
    expect(await model(id)).toMatchObject({ status: "doing", artifactKey: null });
    expect((await ledger(id)).map((e) => e.delta)).toEqual([-5]);
  }, 60_000);

  it("an ERROR delivery fails and refunds once; cancel goes to fal's cancel endpoint; the poll reads a finished request", async () => {
    const failed = await started();
    fake.fail(failed.r.id);
    const d = fake.delivery(failed.r.id);
    await Promise.all([fake.deliver(d, webhookUrl()), fake.deliver(d, webhookUrl())]);
    expect((await model(failed.id)).status).toBe("failed");
    expect((await ledger(failed.id)).map((e) => e.delta)).toEqual([-5, 5]);

    const cancelled = await started();
    await s.http.post("/api/Training/cancel").set("token", user.token).send({ id: cancelled.id }).expect(200);
    expect(fake.requests.get(cancelled.r.id)!.status).toBe("CANCELLED");
    expect((await ledger(cancelled.id)).map((e) => e.delta)).toEqual([-5, 5]);

    const polled = await started();
    expect(await s.services.training.poll(polled.id)).toBe("again");
    fake.succeed(polled.r.id);
    expect(await s.services.training.poll(polled.id)).toBe("done");
    expect((await model(polled.id)).status).toBe("success");
  }, 120_000);
});
