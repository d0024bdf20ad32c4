import { execFile } from "node:child_process";
import crypto from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import { unzipSync } from "fflate";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visitor } from "../../../tests/db-utils.ts";
import { loraSafetensors } from "../../../tests/fixtures/lora-files.ts";
import { audio, photo, video } from "../../../tests/fixtures/media.ts";
import { startS3rver, type S3rverStore } from "../../../tests/fixtures/s3rver.ts";
import { GENERATION_TEST_ENV, grant, startWorkerFor, waitForTask } from "../../../tests/generation-utils.ts";
import { startTestServer } from "../../../tests/server-utils.ts";
import { readCredentials } from "../domains/provenance/provenance.c2pa.ts";
import { loadSigningCredentials } from "../domains/provenance/provenance.credentials.ts";
import { PROJECT_DIR } from "../paths.ts";
import { lazyS3Connection } from "./s3.client.ts";
import { PART_BYTES } from "./s3.multipart.ts";
import type { S3Storage } from "./s3.storage.ts";

const TSX = path.join(PROJECT_DIR, "node_modules/.bin/tsx");

/**
 * Issue 51: every kind of object Reverie stores, written by the app itself with STORAGE=s3 to a real S3-protocol server
 * (s3rver, which keeps aws-chunked framing as data as several S3-compatible stores do), reads back byte-identical with
 * its content type, whole, by range, and through the signed URL a browser gets.
 */
let store: S3rverStore;
let s: Awaited<ReturnType<typeof startTestServer>>;
let worker: { stop(): Promise<void> };
let tmp: string;
let storage: S3Storage;
/** What the app handed to storage, by key: the bytes' SHA-256 and the content type it gave. */
const written = new Map<string, { sha256: string; size: number; contentType: string }>();
const sha256 = (b: Buffer) => crypto.createHash("sha256").update(b).digest("hex");

beforeAll(async () => {
  store = await startS3rver();
  s = await startTestServer({ ...GENERATION_TEST_ENV, ...store.env });
  storage = s.services.storage as S3Storage;
  // every domain service holds this one object and calls its methods at the time of the call: recording here sees
  // every write the app makes, by whichever path (a buffer or a file on disk)
  const { put, putFile } = storage;
  storage.put = async (key, body, contentType) => {
    written.set(key, { sha256: sha256(body), size: body.length, contentType });
    return put(key, body, contentType);
  };
  storage.putFile = async (key, file, contentType) => {
    const body = await fs.readFile(file);
    written.set(key, { sha256: sha256(body), size: body.length, contentType });
    return putFile(key, file, contentType);
  };
  worker = await startWorkerFor(s);
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "s3-roundtrip-"));
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await s?.stop();
  await store?.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

/** The object as a browser gets it: through its signed URL, with the headers the store answers. */
async function download(key: string, range?: string) {
  const res = await fetch(await storage.signedUrl(key), { headers: range ? { range } : {} });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** Each stored kind opened as what it claims to be, as the operator's trial decodes it. */
async function decodes(bytes: Buffer, contentType: string): Promise<void> {
  if (contentType.startsWith("image/")) expect((await sharp(bytes).metadata()).width).toBeGreaterThan(0);
  else if (contentType === "video/mp4") expect(bytes.subarray(4, 8).toString("latin1")).toBe("ftyp");
  else if (contentType.startsWith("audio/")) expect(bytes.length).toBeGreaterThan(100);
  else if (contentType === "application/zip") expect(Object.keys(unzipSync(new Uint8Array(bytes))).length).toBeGreaterThan(0);
  else if (contentType === "application/json") JSON.parse(bytes.toString("utf8"));
  else expect(Number(bytes.readBigUInt64LE(0))).toBeLessThan(bytes.length);
}

describe("STORAGE=s3 against an S3-compatible store", () => {
  let user: { token: string; userId: number };
  let clipKey: string;

  beforeAll(async () => {
    user = await visitor(s);
    await grant(s, user.userId, 100);
  });

  it("uploads of each kind, outputs with their posters (watermarked, C2PA-signed) and export archives read back byte-identical", async () => {
    const as = (url: string) => s.http.post(url).set("token", user.token);
    for (const format of ["jpeg", "png", "webp"] as const) {
      await as("/api/ImageUpload/upload")
        .attach("file", await photo(640, 480, format), `p.${format}`)
        .field("consent", "1")
        .expect(200);
    }
    await as("/api/ImageUpload/videoFromMedia")
      .attach("file", await video(tmp, 5), "clip.mp4")
      .field("consent", "1")
      .expect(200);
    await as("/api/ImageUpload/audioFromMedia")
      .attach("file", await audio(tmp, 8), "song.mp3")
      .field("consent", "1")
      .field("start", "1")
      .field("end", "6")
      .expect(200);

    const made = [];
    for (const [call, body] of [
      ["textPicSubmit", { prompt: "a lighthouse on a cliff at dusk" }],
      ["textVideoSubmit", { prompt: "waves rolling onto a beach", resolution: "480P", duration: 4 }],
    ] as const) {
      const id = (await as(`/api/Generation/${call}`).send(body).expect(200)).body.data.id as number;
      made.push(await waitForTask(s, id, 90_000));
    }
    expect(made.map((t) => t.status)).toEqual(["succeeded", "succeeded"]);
    const outputs = made.map((t) => t.outputs as { mainKey: string; posterKey: string; mark: unknown });
    // a guest's output carries the brand's mark (decision 296)
    expect(outputs.map((o) => o.mark)).not.toContain(null);
    clipKey = outputs[1].mainKey;

    const exportId = (await as("/api/privacy/export").expect(200)).body.data.id as number;
    await s.services.privacy.runExport(exportId);
    const exportKey = (await s.db.dataExport.findUniqueOrThrow({ where: { id: exportId } })).storageKey!;

    const folders = new Set([...written.keys()].map((k) => k.split("/")[2]));
    expect([...folders]).toEqual(expect.arrayContaining(["uploads", "outputs", "posters", "exports"]));
    for (const key of [...outputs.flatMap((o) => [o.mainKey, o.posterKey]), exportKey]) expect(written.has(key)).toBe(true);

    const operator = (await loadSigningCredentials(s.config)).signer.certificate;
    for (const [key, w] of written) {
      expect(sha256(await storage.get(key)), key).toBe(w.sha256);
      const { res, bytes } = await download(key);
      expect(res.status, key).toBe(200);
      expect(res.headers.get("content-type"), key).toBe(w.contentType);
      expect(res.headers.get("content-encoding"), key).toBeNull();
      expect(sha256(bytes), key).toBe(w.sha256);
      await decodes(bytes, w.contentType);
      if (["outputs", "posters"].includes(key.split("/")[2])) {
        expect(await readCredentials(bytes, operator), key).toMatchObject({ valid: true, signedByOperator: true });
      }
    }
  }, 240_000);

  it("a video answers a range read through its signed URL and through the API's stream", async () => {
    const whole = await storage.get(clipKey);
    const { res, bytes } = await download(clipKey, "bytes=100-1099");
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe(`bytes 100-1099/${whole.length}`);
    expect(bytes.equals(whole.subarray(100, 1100))).toBe(true);
    expect((await buffer(await storage.stream(clipKey, { start: 1000, end: whole.length - 1 }))).equals(whole.subarray(1000))).toBe(true);
    const local = await storage.toLocalFile(clipKey, tmp);
    expect((await fs.readFile(local)).equals(whole)).toBe(true);
  });

  it("large files go up in parts, and LoRA weights and consent records as Reverie writes them read back whole", async () => {
    const { client } = await storage.connection();
    const sent: string[] = [];
    const send = client.send.bind(client);
    client.send = ((command: { constructor: { name: string } }, ...rest: unknown[]) => {
      sent.push(command.constructor.name);
      return (send as (...a: unknown[]) => unknown)(command, ...rest);
    }) as typeof client.send;
    try {
      const archive = path.join(tmp, "big-export.zip");
      const big = crypto.randomBytes(2 * PART_BYTES + 12345);
      await fs.writeFile(archive, big);
      const cases = [
        { key: `u/${user.userId}/exports/${crypto.randomUUID()}.zip`, body: big, type: "application/zip", file: archive },
        { key: `u/${user.userId}/models/${crypto.randomUUID()}.safetensors`, body: loraSafetensors(16, 16384), type: "application/octet-stream" },
        { key: `u/${user.userId}/consent/${crypto.randomUUID()}/selfie.json`, body: Buffer.from('{"frames":2}'), type: "application/json" },
      ];
      for (const c of cases) {
        if (c.file) await storage.putFile(c.key, c.file, c.type);
        else await storage.put(c.key, c.body, c.type);
        const { res, bytes } = await download(c.key);
        expect([res.status, res.headers.get("content-type"), res.headers.get("content-encoding")]).toEqual([200, c.type, null]);
        expect(bytes.equals(c.body), c.key).toBe(true);
      }
      expect(sent.filter((n) => n === "UploadPartCommand")).toHaveLength(3);
      expect(sent.filter((n) => n === "CompleteMultipartUploadCommand")).toHaveLength(1);
    } finally {
      client.send = send;
    }
  });

  it("storage:repair finds the objects the SDK's defaults framed, rewrites each in place and logs its key, and leaves the rest", async () => {
    // the write Reverie made before issue 51: a file streamed with the SDK's default checksums
    const { sdk, client } = await lazyS3Connection({ ...optionsOf(store), checksums: "when_supported" })();
    const damaged = [
      { key: `u/${user.userId}/posters/${crypto.randomUUID()}.jpg`, body: await photo(320, 240), type: "image/jpeg" },
      { key: `u/${user.userId}/outputs/${crypto.randomUUID()}.mp4`, body: await storage.get(clipKey), type: "video/mp4" },
      { key: `u/${user.userId}/exports/${crypto.randomUUID()}.zip`, body: crypto.randomBytes(70_000), type: "application/zip" },
    ];
    for (const d of damaged) {
      const file = path.join(tmp, path.basename(d.key));
      await fs.writeFile(file, d.body);
      await client.send(
        new sdk.PutObjectCommand({ Bucket: store.bucket, Key: d.key, Body: createReadStream(file), ContentLength: d.body.length, ContentType: d.type }),
      );
      // the defect as the operator saw it: a chunk size before the first byte, the checksum trailer after the last
      const { res, bytes } = await download(d.key);
      expect(res.headers.get("content-encoding")).toBe("aws-chunked");
      expect(bytes.subarray(0, 12).toString("latin1")).toMatch(/^[0-9a-f]+\r\n/);
      expect(bytes.subarray(-60).toString("latin1")).toMatch(/\r\n0\r\nx-amz-checksum-crc32:[A-Za-z0-9+/=]+\r\n\r\n$/);
    }
    // real data that merely starts like a chunk head
    const lookalike = {
      key: `u/${user.userId}/consent/${crypto.randomUUID()}/note.txt`,
      body: Buffer.from("abc\r\nnot framed at all\r\n"),
      type: "text/plain",
    };
    await storage.put(lookalike.key, lookalike.body, lookalike.type);

    const dry = await repairCommand("--dry-run");
    expect(dry.code).toBe(0);
    for (const d of damaged) expect(dry.lines.find((l) => l.key === d.key)?.msg).toBe("storage repair: would repair");
    expect((await download(damaged[0].key)).res.headers.get("content-encoding")).toBe("aws-chunked");

    const run = await repairCommand();
    expect(run.code).toBe(0);
    expect(
      run.lines
        .filter((l) => l.msg === "storage repair: repaired")
        .map((l) => l.key)
        .sort(),
    ).toEqual(damaged.map((d) => d.key).sort());
    for (const d of [...damaged, lookalike]) {
      const { res, bytes } = await download(d.key);
      expect([res.headers.get("content-type"), res.headers.get("content-encoding")], d.key).toEqual([d.type, null]);
      expect(bytes.equals(d.body), d.key).toBe(true);
    }
    expect((await sharp(await storage.get(damaged[0].key)).metadata()).format).toBe("jpeg");

    const again = await repairCommand();
    expect(again.lines.find((l) => l.msg === "storage repair done")).toMatchObject({ repaired: 0, failed: 0 });
  }, 60_000);
});

/** `npm run storage:repair`, as an operator runs it against this store; its log lines parsed. */
async function repairCommand(...args: string[]): Promise<{ code: number; lines: Record<string, unknown>[] }> {
  const env = { ...process.env, ...store.env, DATA_DIR: tmp, LOG_LEVEL: "info" };
  const out = await new Promise<{ code: number; stdout: string }>((resolve) => {
    execFile(TSX, ["server/src/storage/repair.cli.ts", ...args], { cwd: PROJECT_DIR, env }, (err, stdout) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout }),
    );
  });
  const lines = out.stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { code: out.code, lines };
}

function optionsOf(st: S3rverStore) {
  return {
    bucket: st.bucket,
    region: st.region,
    endpoint: st.url,
    accessKeyId: st.accessKeyId,
    secretAccessKey: st.secretAccessKey,
    forcePathStyle: true,
    defaultTtl: 600,
  };
}
