import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../tests/db-utils.ts";
import { staffMember, type StaffLogin } from "../../../../tests/staff-utils.ts";
import { balanceOf, face, registeredUser } from "../../../../tests/training-utils.ts";
import { GENERATION_TEST_ENV, grant } from "../../../../tests/generation-utils.ts";
import { SCREENING_MESSAGES } from "../../contract/screening.ts";
import { mediaKey } from "../../storage/storage.ts";
import { MATCH_BITS } from "./blocklist.match.ts";
import { bandNeighbours, bandsOf, hammingDistance, hashHex, perceptualHash } from "./phash.ts";

/** The blocklist of taken-down media: pHash, multi-index lookup, the takedown hook, imports (docs/decisions/142). */
describe("hashes and bands", () => {
  it("a hash splits into bands of 13, 13, 13, 13 and 12 bits; a band has 1 + 13 values within 1 bit, 1 + 13 + 78 within 2", () => {
    const h = 0x0123456789abcdefn;
    const [b0, b1, b2, b3, b4] = bandsOf(h);
    expect(b0).toBe(Number(h >> 51n));
    expect((BigInt(b0) << 51n) | (BigInt(b1) << 38n) | (BigInt(b2) << 25n) | (BigInt(b3) << 12n) | BigInt(b4)).toBe(h);
    expect(bandsOf(0xffffffffffffffffn)).toEqual([8191, 8191, 8191, 8191, 4095]);
    expect(bandNeighbours(b0, 13, 1).length).toBe(14);
    const n = bandNeighbours(b0, 13, 2);
    expect(n.length).toBe(92);
    expect(new Set(n).size).toBe(92);
    expect(n.every((v) => hammingDistance(BigInt(v), BigInt(b0)) <= 2)).toBe(true);
    expect(hashHex(0xfn)).toBe("000000000000000f");
  });

  it("the same picture re-encoded, resized or lightly cropped stays within MATCH_BITS; different photos do not", async () => {
    const src = await face("stock-emotions-a-1");
    const h = await perceptualHash(src);
    const { width, height } = await sharp(src).metadata();
    const variants = {
      resizedJpeg: await sharp(src)
        .resize(Math.round(width! / 2))
        .jpeg({ quality: 60 })
        .toBuffer(),
      webp: await sharp(src)
        .resize(Math.round(width! * 1.5))
        .webp({ quality: 50 })
        .toBuffer(),
      cropped: await sharp(src)
        .extract({ left: Math.round(width! * 0.03), top: 0, width: Math.round(width! * 0.94), height: Math.round(height! * 0.97) })
        .jpeg({ quality: 85 })
        .toBuffer(),
    };
    for (const [name, v] of Object.entries(variants)) expect(hammingDistance(h, await perceptualHash(v)), name).toBeLessThanOrEqual(MATCH_BITS);
    for (const other of ["person-vlado", "person-linda", "stock-emotions-b-2", "background"]) {
      expect(hammingDistance(h, await perceptualHash(await face(other))), other).toBeGreaterThan(MATCH_BITS);
    }
  });
});

let t: TestApp;
let mod: StaffLogin;
let owner: { token: string; userId: number };
let other: { token: string; userId: number };

beforeAll(async () => {
  t = await createTestApp(GENERATION_TEST_ENV);
  mod = await staffMember(t, ["moderator"]);
  owner = await registeredUser(t);
  other = await registeredUser(t);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const upload = (token: string, image: Buffer) =>
  t.http.post("/api/ImageUpload/upload").set("token", token).field("consent", "1").attach("file", image, "p.jpg");

describe("takedown puts media on the blocklist", () => {
  it("a taken-down photo is refused again, identical, resized and re-encoded, or lightly cropped, linked to its case", async () => {
    const src = await face("person-vlado");
    const first = await upload(owner.token, src);
    expect(first.status).toBe(200);
    const uploadId = first.body.data.id;
    await t.http.post("/api/report").set("token", owner.token).send({ target_type: "upload", target_id: uploadId, reason: "non_consensual" }).expect(200);
    const report = await t.db.report.findFirstOrThrow({ where: { targetType: "upload", targetId: uploadId } });
    await t.http.post(`/admin/api/reports/${report.id}/takedown`).set("token", mod.token).send({ reason: "not consensual" }).expect(200);
    const blocked = await t.db.blockedHash.findMany({ where: { targetType: "upload", targetId: uploadId } });
    // the picture and its five crop variants (identical hashes stored once)
    expect(blocked.length).toBeGreaterThanOrEqual(2);
    expect(blocked.length).toBeLessThanOrEqual(6);
    expect(blocked[0].source).toBe("takedown");

    const { width, height } = await sharp(src).metadata();
    const copies = {
      identical: src,
      resizedReencoded: await sharp(src)
        .resize(Math.round(width! * 0.6))
        .jpeg({ quality: 55 })
        .toBuffer(),
      webp: await sharp(src).webp({ quality: 60 }).toBuffer(),
      cropped: await sharp(src)
        .extract({ left: Math.round(width! * 0.03), top: Math.round(height! * 0.02), width: Math.round(width! * 0.95), height: Math.round(height! * 0.96) })
        .png()
        .toBuffer(),
    };
    for (const [name, copy] of Object.entries(copies)) {
      const res = await upload(other.token, copy);
      expect(res.status, name).toBe(403);
      expect(res.body, name).toMatchObject({ msg: SCREENING_MESSAGES.blocked, data: { reason: "blocked_media" } });
    }
    const hits = await t.db.blockedHashHit.findMany({ where: { userId: other.userId }, include: { blockedHash: true } });
    expect(hits).toHaveLength(4);
    expect(hits.every((h) => h.kind === "upload" && h.blockedHash.targetType === "upload" && h.blockedHash.targetId === uploadId)).toBe(true);
    // nothing was stored for the refused copies
    expect(await t.db.upload.count({ where: { userId: other.userId } })).toBe(0);
    // a different photo is not refused
    expect((await upload(other.token, await face("person-linda"))).status).toBe(200);

    const list = await t.http
      .get(`/admin/api/blocked-hashes?filter=${encodeURIComponent(JSON.stringify({ targetType: "upload", targetId: uploadId }))}`)
      .set("token", mod.token)
      .expect(200);
    expect(list.body).toHaveLength(blocked.length);
    expect(list.body.reduce((n: number, r: any) => n + r.hits, 0)).toBe(4);
    expect(list.body[0]).toMatchObject({ hash: expect.stringMatching(/^[0-9a-f]{16}$/), targetId: uploadId, source: "takedown" });
  }, 120_000);
});

describe("imported lists", () => {
  it("moderators import hashes (audited); a matching upload is refused; bad lines change nothing", async () => {
    const bg = await face("background");
    const h = hashHex(await perceptualHash(bg));
    await t.http
      .post("/admin/api/blocked-hashes")
      .set("token", mod.token)
      .send({ hashes: `# list from a partner\n${h}\nnot-a-hash\n` })
      .expect(400);
    expect(await t.db.blockedHash.count({ where: { source: "import" } })).toBe(0);
    const support = await staffMember(t, ["support"]);
    await t.http.post("/admin/api/blocked-hashes").set("token", support.token).send({ hashes: h }).expect(403);
    await t.http.post("/admin/api/blocked-hashes").set("token", owner.token).send({ hashes: h }).expect(401);

    const res = await t.http
      .post("/admin/api/blocked-hashes")
      .set("token", mod.token)
      .send({ hashes: `# list from a partner\n${h}\n0x00000000000000ff\n${h}\n`, note: "partner list 2026-11" })
      .expect(200);
    expect(res.body).toMatchObject({ added: 2, duplicates: 0, lines: 3 });
    const again = await t.http.post("/admin/api/blocked-hashes").set("token", mod.token).send({ hashes: h }).expect(200);
    expect(again.body).toMatchObject({ added: 0, duplicates: 1 });
    const audit = await t.db.auditLog.findMany({ where: { action: "blocklist_import" } });
    expect(audit.map((a) => [a.staffId, a.reason])).toEqual([
      [mod.staffId, "partner list 2026-11"],
      [mod.staffId, null],
    ]);

    const refused = await upload(other.token, await sharp(bg).resize(300).jpeg({ quality: 70 }).toBuffer());
    expect(refused.status).toBe(403);
    expect(refused.body.data).toEqual({ reason: "blocked_media" });
  }, 60_000);

  it("a generated output matching the blocklist is found (the worker then fails and refunds the task)", async () => {
    const key = mediaKey(owner.userId, "outputs", "jpg");
    await t.services.storage.put(
      key,
      await sharp(await face("background"))
        .resize(500)
        .jpeg({ quality: 80 })
        .toBuffer(),
      "image/jpeg",
    );
    const m = await t.services.blocklist.blockedOutput(owner.userId, 4242, [key]);
    expect(m).toMatchObject({ distance: expect.any(Number) });
    expect(m!.distance).toBeLessThanOrEqual(MATCH_BITS);
    expect(await t.db.blockedHashHit.count({ where: { kind: "output", taskId: 4242 } })).toBe(1);
  });

  it("a render whose output matches is not delivered: the task fails and is refunded once", async () => {
    await grant(t, owner.userId, 5);
    const before = await balanceOf(t, owner.userId);
    const res = await t.http
      .post("/api/Generation/textPicSubmit")
      .set("token", owner.token)
      .send({ prompt: "a lighthouse at dusk", idempotency_key: "blocked-output" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await balanceOf(t, owner.userId)).toBe(before - res.body.data.cost);
    const queued = await t.db.generationTask.findUniqueOrThrow({ where: { id: res.body.data.id } });
    const task = (await t.services.generation.beginAttempt(queued.id, queued.jobId ?? undefined))!;
    const key = mediaKey(owner.userId, "outputs", "jpg");
    await t.services.storage.put(
      key,
      await sharp(await face("background"))
        .resize(640)
        .jpeg({ quality: 75 })
        .toBuffer(),
      "image/jpeg",
    );
    expect(await t.services.generation.complete(task, { mainKey: key, posterKey: key, extraKeys: [], width: 640, height: 480 })).toBe(false);
    expect(await t.db.generationTask.findUniqueOrThrow({ where: { id: task.id } })).toMatchObject({
      status: "failed",
      error: SCREENING_MESSAGES.blocked,
      outputKey: null,
    });
    expect(await balanceOf(t, owner.userId)).toBe(before);
    expect(await t.db.blockedHashHit.count({ where: { kind: "output", taskId: task.id } })).toBe(1);
    expect(await t.services.credits.findLedgerMismatches()).toEqual([]);
  });
});

describe("multi-index lookup", () => {
  it("finds every hash within MATCH_BITS among many and none further away", async () => {
    const rnd = () => BigInt.asUintN(64, (BigInt(Math.floor(Math.random() * 2 ** 32)) << 32n) | BigInt(Math.floor(Math.random() * 2 ** 32)));
    const many = Array.from({ length: 20_000 }, rnd);
    await t.db.blockedHash.createMany({
      data: many.map((h) => {
        const [band0, band1, band2, band3, band4] = bandsOf(h);
        return { hash: BigInt.asIntN(64, h), band0, band1, band2, band3, band4, source: "import" };
      }),
      skipDuplicates: true,
    });
    const flip = (h: bigint, bits: number) => {
      const positions = new Set<number>();
      while (positions.size < bits) positions.add(Math.floor(Math.random() * 64));
      let v = h;
      for (const p of positions) v ^= 1n << BigInt(p);
      return v;
    };
    for (let i = 0; i < 40; i++) {
      const target = many[i];
      const near = flip(target, i % (MATCH_BITS + 1));
      expect((await t.services.blocklist.match([near]))?.distance, `flipped ${i % (MATCH_BITS + 1)}`).toBe(i % (MATCH_BITS + 1));
      const far = flip(target, MATCH_BITS + 3 + (i % 10));
      const m = await t.services.blocklist.match([far]);
      // a miss, or a (rare) genuine neighbour among the random hashes: never a wrong distance
      if (m) expect(m.distance).toBeLessThanOrEqual(MATCH_BITS);
    }
  }, 60_000);
});
