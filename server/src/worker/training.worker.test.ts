import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeFal, type FakeFal } from "../../../tests/fixtures/fake-fal.ts";
import { GENERATION_TEST_ENV, startWorkerFor } from "../../../tests/generation-utils.ts";
import { falEnv, personAPhotos, registeredUser, startTrainingServer, TRAIN_WITHOUT_REVIEW, trainingSet } from "../../../tests/training-utils.ts";

/** The polling fallback through the real pg-boss queue: no webhook ever arrives, the worker's poll finds the result. */
const KEY = "fal-worker-key";
let fake: FakeFal;
let s: Awaited<ReturnType<typeof startTrainingServer>>;
let worker: Awaited<ReturnType<typeof startWorkerFor>>;

beforeAll(async () => {
  fake = await startFakeFal({ key: KEY });
  s = await startTrainingServer({ ...GENERATION_TEST_ENV, ...falEnv(fake, KEY), ...TRAIN_WITHOUT_REVIEW, TRAINING_POLL_SECONDS: "1" });
  worker = await startWorkerFor(s);
}, 180_000);
afterAll(async () => {
  await worker?.stop();
  await s?.stop();
  await fake?.stop();
});

async function until(check: () => Promise<boolean>, ms = 30_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe("training poll job", () => {
  it("polls a running training until the trainer reports it done, then stops", async () => {
    const user = await registeredUser(s, 20);
    const set = await trainingSet(s, user.token, await personAPhotos());
    const res = await s.http
      .post("/api/Training/submit")
      .set("token", user.token)
      .send({ name: "Polled", home_link: "polled", ...set })
      .expect(200);
    const id = res.body.data.id as number;
    // the trainer is asked again and again while it runs (TRAINING_POLL_SECONDS=1), and the model waits
    await until(async () => fake.requests.size === 1 && fake.only().statusPolls >= 2);
    expect((await s.db.characterModel.findUniqueOrThrow({ where: { id } })).status).toBe("doing");
    fake.succeed(fake.only().id);
    await until(async () => (await s.db.characterModel.findUniqueOrThrow({ where: { id } })).status === "success");
    const m = await s.db.characterModel.findUniqueOrThrow({ where: { id } });
    expect(m.artifactKey).toBeTruthy();
    // then it stops: three poll intervals pass without another status call
    const polled = fake.only().statusPolls;
    await new Promise((r) => setTimeout(r, 3000));
    expect(fake.only().statusPolls).toBe(polled);
  }, 120_000);
});
