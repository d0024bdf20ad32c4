import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Logger } from "pino";
import type { Config } from "../../config.ts";
import { PROVENANCE_MESSAGES } from "../../contract/provenance.ts";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import { measuredDurationSec, sniff } from "../../storage/media-tools.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import type { EngineFile, EngineResult } from "../generation/engines/engine.ts";
import { sampleFrames } from "../screening/frames.ts";
import { BAND_BITS, bandNeighbours, bandsOf, perceptualHash, toSigned } from "../screening/phash.ts";
import { IMAGE_KINDS, type IncomingFile, LIMITS, normaliseImage, VIDEO_KINDS, withProbedMedia } from "../uploads/uploads.service.ts";
import { embedCredentials, generatorName, readCredentials } from "./provenance.c2pa.ts";
import { loadSigningCredentials } from "./provenance.credentials.ts";
import { nearestOutputFingerprint } from "./provenance.queries.ts";
import type { ProvenanceAnswer } from "./provenance.schema.ts";

/**
 * A copy this close (differing bits of 64) is the same output: the screening blocklist's distance (docs/decisions/142),
 * measured there on re-encoded, resized and lightly cropped copies. At most 9, the most the band lookup is exact for.
 */
const MATCH_BITS = 8;
/** The key of one of our outputs (or its poster) inside a media link: a signed local URL's `key`, or an S3 URL's path. */
const OUTPUT_KEY = /(?:^|\/)(u\/\d+\/(?:outputs|posters)\/[0-9a-f-]{36}\.(?:png|jpg|webp|mp4))$/;

/**
 * The storage key of one of our outputs that a link names, or null. A link that is no URL, or whose path is not valid
 * percent-encoding (decodeURIComponent throws URIError on `%E0%A4%A`), names none: pasted text must answer 400, not 500.
 */
export function outputKeyOfLink(link: string, base: string): string | null {
  try {
    const url = new URL(link, base);
    return OUTPUT_KEY.exec(url.searchParams.get("key") ?? decodeURIComponent(url.pathname))?.[1] ?? null;
  } catch {
    return null;
  }
}

/**
 * Provenance of outputs (issue 33 item 8, docs/decisions/297 and 298): every output is signed with C2PA Content
 * Credentials and fingerprinted when it is stored; anyone can ask whether a file or link was made here.
 */
export function createProvenanceService(deps: { db: Db; config: Config; log: Logger; storage: MediaStorage }) {
  const { db, config, log, storage } = deps;
  // made (or read) at start, so the first output does not wait for key generation; a broken configured file is logged
  // here and fails every output until it is fixed: an output must not be delivered unmarked
  const credentials = loadSigningCredentials(config);
  credentials.catch((err: unknown) => log.error({ err }, "the provenance signing credentials could not be loaded"));

  async function sign(file: EngineFile, engine: string, when: Date) {
    const { signer } = await credentials;
    const signed = await embedCredentials(await fs.readFile(file.path), file.mime, { issuer: config.PROVENANCE_ISSUER, engine, when }, signer);
    if (signed) await fs.writeFile(file.path, signed);
    else log.warn({ mime: file.mime }, "this output's format cannot carry Content Credentials; it is delivered without them");
  }

  /** An image's pHash, or a video's sampled frames' (the sampling the page repeats on a copy). */
  async function hashesOfFile(file: EngineFile): Promise<bigint[]> {
    if (file.mime !== "video/mp4") return [await perceptualHash(file.path)];
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-provenance-"));
    try {
      const frames = await sampleFrames(file.path, await measuredDurationSec(file.path), dir);
      return Promise.all(frames.map((f) => perceptualHash(f)));
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }

  async function recordFingerprints(taskId: number, engine: string, files: EngineFile[]) {
    const hashes = [...new Set((await Promise.all(files.map(hashesOfFile))).flat())];
    const rows = hashes.map((h) => {
      const [band0, band1, band2, band3, band4] = bandsOf(h);
      return { taskId, hash: toSigned(h), band0, band1, band2, band3, band4, engine };
    });
    // a job run twice (pg-boss retries) records each hash once
    await db.outputFingerprint.createMany({ data: rows, skipDuplicates: true });
  }

  /**
   * Signs every file of a finished output in place (main, batch images, poster) and records its fingerprints. Called
   * by the worker before the files are stored. A fingerprint that cannot be recorded costs only the stripped-copy
   * answer, so it is logged; a signature that cannot be made fails the attempt.
   */
  async function markOutputs(result: EngineResult, task: { id: number; engine: string }): Promise<void> {
    const when = new Date();
    const shown = [result.main, ...result.extra];
    for (const f of [...shown, result.poster]) await sign(f, task.engine, when);
    await recordFingerprints(task.id, task.engine, shown).catch((err: unknown) => log.warn({ taskId: task.id, err }, "recording output fingerprints failed"));
  }

  /** The file a link names, when it is one of our outputs; read from storage, never fetched from the link's host. */
  async function fileOfLink(link: string): Promise<IncomingFile> {
    const key = outputKeyOfLink(link, config.publicUrl);
    if (!key || !(await storage.exists(key))) throw HttpError.badRequest(PROVENANCE_MESSAGES.notOurLink);
    const buffer = await storage.get(key);
    return { buffer, size: buffer.length };
  }

  /** A copy's hashes, after the upload checks of its kind (size, content, pixel limit, readable video). */
  async function hashesOfUpload(file: IncomingFile, kind: string): Promise<bigint[]> {
    if (IMAGE_KINDS.has(kind)) {
      if (file.size > LIMITS.imageBytes) throw HttpError.badRequest(MSG.imageTooBig);
      return [await perceptualHash((await normaliseImage(file.buffer)).data)];
    }
    const rule = { maxBytes: LIMITS.videoBytes, tooBig: MSG.videoTooBig, kinds: VIDEO_KINDS, unreadable: MSG.videoUnparsable };
    return withProbedMedia(file, rule, async (dir, src, info) => Promise.all((await sampleFrames(src, info.durationSec, dir)).map((f) => perceptualHash(f))));
  }

  async function nearest(hashes: bigint[]) {
    let best: { engine: string; made_at: Date; distance: number } | undefined;
    for (const h of hashes) {
      const bands = bandsOf(h).map((v, i) => bandNeighbours(v, BAND_BITS[i], 1));
      const m = await nearestOutputFingerprint.first(db, { bands, hash: toSigned(h), maxBits: MATCH_BITS });
      if (m && (!best || m.distance < best.distance)) best = m;
    }
    return best;
  }

  /** "Was this made with Reverie?": the file's own credentials first, then the fingerprints of our outputs. */
  async function check(input: { file?: IncomingFile; link?: string }): Promise<ProvenanceAnswer> {
    if (!input.file === !input.link) throw HttpError.badRequest(PROVENANCE_MESSAGES.fileOrLink);
    const file = input.link ? await fileOfLink(input.link) : (input.file as IncomingFile);
    const kind = sniff(file.buffer);
    if (!kind || !(IMAGE_KINDS.has(kind) || VIDEO_KINDS.has(kind))) throw HttpError.badRequest(PROVENANCE_MESSAGES.fileKind);
    const read = await readCredentials(file.buffer, (await credentials).signer.certificate);
    const seen = read && { valid: read.valid, signedByOperator: read.signedByOperator, aiGenerated: read.aiGenerated };
    if (read?.signedByOperator) return { madeWithReverie: true, evidence: "credentials", madeAt: read.madeAt, generator: read.generator, credentials: seen };
    const match = await nearest(await hashesOfUpload(file, kind));
    if (!match) return { madeWithReverie: false, evidence: "none", madeAt: null, generator: null, credentials: seen };
    const generator = generatorName(config.PROVENANCE_ISSUER, match.engine);
    return { madeWithReverie: true, evidence: "fingerprint", madeAt: match.made_at.toISOString(), generator, credentials: seen };
  }

  return { markOutputs, check };
}

export type ProvenanceService = ReturnType<typeof createProvenanceService>;
