import fs from "node:fs/promises";
import path from "node:path";
import type { Logger } from "pino";
import sharp from "sharp";
import { type Corner, MARK_CORNERS } from "../../contract/generation.ts";
import type { Db } from "../../db/client.ts";
import type { GenerationTask } from "../../db/generated/client.ts";
import type { FaceAnalyser } from "../../faces/faces.ts";
import { PROJECT_DIR } from "../../paths.ts";
import { ffmpeg } from "../../storage/media-tools.ts";
import { mediaInfo } from "../../storage/mp4-header.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import { sampleFrames } from "../screening/frames.ts";
import { storedBrand } from "../site/site.brand.ts";
import type { EngineFile, EngineResult } from "./engines/engine.ts";
import { joinContinuation, type Overlay } from "./engines/follow-ups.ts";
import { taskChargeKey, type TaskOutputs } from "./generation.task.ts";

/** The product's own mark, drawn when the operator has uploaded no logo. */
export const DEFAULT_MARK = path.join(PROJECT_DIR, "consumer/public/icon.svg");

/** The mark's width as a share of the picture's short side, its margin from the edges (same share), its opacity. */
export const MARK = { share: 0.14, margin: 0.03, opacity: 0.7, minWidth: 24 } as const;

/** A face as a share of the picture (0..1), so one detection serves the output and its smaller poster alike. */
export interface FaceArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Placement {
  corner: Corner;
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * Where the mark goes in a `width` x `height` picture: of the four corners, the one whose mark is farthest from the
 * nearest face centre (docs/decisions/296); bottom right when no face was seen. `aspect` is the mark's width / height.
 * A `corner` given (the one a follow-up's source was marked in, docs/decisions/316) is taken whatever the faces.
 */
export function placeMark(width: number, height: number, aspect: number, faces: FaceArea[], corner?: Corner): Placement {
  const short = Math.min(width, height);
  const margin = Math.round(short * MARK.margin);
  const w = Math.min(width - 2 * margin, Math.max(MARK.minWidth, Math.round(short * MARK.share)));
  const h = Math.min(height - 2 * margin, Math.max(1, Math.round(w / aspect)));
  const boxes = MARK_CORNERS.map((c) => ({
    corner: c,
    left: c.endsWith("left") ? margin : width - w - margin,
    top: c.startsWith("top") ? margin : height - h - margin,
    width: w,
    height: h,
  }));
  if (corner) return boxes.find((b) => b.corner === corner)!;
  const centres = faces.map((f) => ({ x: (f.x + f.width / 2) * width, y: (f.y + f.height / 2) * height }));
  if (!centres.length) return boxes[0];
  const clearance = (b: Placement) => Math.min(...centres.map((c) => Math.hypot(b.left + b.width / 2 - c.x, b.top + b.height / 2 - c.y)));
  return boxes.reduce((best, b) => (clearance(b) > clearance(best) ? b : best));
}

/** The mark at `width` px, its alpha scaled to MARK.opacity, as PNG. */
async function markImage(logo: Buffer, width: number, height: number): Promise<Buffer> {
  const { data, info } = await sharp(logo, { density: 300 })
    .resize({ width, height, fit: "contain", background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  for (let i = 3; i < data.length; i += 4) data[i] = Math.round(data[i] * MARK.opacity);
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } })
    .png()
    .toBuffer();
}

/** A result as the watermark step hands it on: its files, and the corner of the mark they carry (null: none). */
export interface MarkedResult extends EngineResult {
  mark: Corner | null;
}

/** The logo's width / height, as the mark keeps it. */
async function aspectOf(logo: Buffer): Promise<number> {
  const meta = await sharp(logo, { density: 300 }).metadata();
  return (meta.width ?? 1) / (meta.height ?? 1);
}

/**
 * Marks a result's files with `logo`: every image, or the video in one pass, and the poster in the same corner.
 * Answers the result with the marked files in place of the engine's.
 */
export function createMarker({ faces, log }: { faces: Pick<FaceAnalyser, "detect">; log: Logger }) {
  /**
   * Faces seen in these pictures, as shares of each. A face model that fails leaves the bottom-right corner: the
   * output is still delivered, and the failure logged.
   */
  async function facesIn(pictures: Buffer[]): Promise<FaceArea[]> {
    try {
      const found = await Promise.all(
        pictures.map(async (p) => {
          const meta = await sharp(p).metadata();
          const w = meta.width ?? 1;
          const h = meta.height ?? 1;
          return (await faces.detect(p)).map(({ box }) => ({ x: box.x / w, y: box.y / h, width: box.width / w, height: box.height / h }));
        }),
      );
      return found.flat();
    } catch (err) {
      log.warn({ err }, "the face model failed; the watermark goes to the bottom-right corner");
      return [];
    }
  }

  /** Faces in a file of a result: in the frames screening samples from a clip, or in the picture. */
  async function facesOf(f: EngineFile): Promise<FaceArea[]> {
    if (f.mime !== "video/mp4") return facesIn([await fs.readFile(f.path)]);
    return facesIn(await sampleFrames(f.path, (await mediaInfo(f.path)).durationSec, path.dirname(f.path)));
  }

  /** An image file marked into a new file beside it, in its own format. */
  async function markPicture(file: string, logo: Buffer, aspect: number, seen: FaceArea[]): Promise<{ out: string; corner: Corner }> {
    const meta = await sharp(file).metadata();
    const at = placeMark(meta.width ?? 0, meta.height ?? 0, aspect, seen);
    const out = path.join(path.dirname(file), `marked-${path.basename(file)}`);
    const img = sharp(file).composite([{ input: await markImage(logo, at.width, at.height), left: at.left, top: at.top }]);
    await (/\.jpe?g$/i.test(file) ? img.jpeg({ quality: 90 }) : img).toFile(out);
    return { out, corner: at.corner };
  }

  /**
   * The mark for a `width` x `height` video as a PNG in `workDir`, and where it goes: in `corner` where one is given,
   * else in the corner clear of the faces `seen`.
   */
  async function overlay(logo: Buffer, size: { width: number; height: number }, seen: FaceArea[], workDir: string, corner?: Corner) {
    const at = placeMark(size.width, size.height, await aspectOf(logo), seen, corner);
    const file = path.join(workDir, "watermark.png");
    await fs.writeFile(file, await markImage(logo, at.width, at.height));
    return { file, left: at.left, top: at.top, corner: at.corner } satisfies Overlay & { corner: Corner };
  }

  /**
   * The video marked in one ffmpeg pass: the mark laid over every frame (one H.264 encode), the audio copied as it is.
   * One corner for the whole clip, away from every face in its sampled frames.
   */
  async function markVideo(file: string, logo: Buffer) {
    const src = await mediaInfo(file);
    if (!src.video) throw new Error("the output has no video stream");
    const workDir = path.dirname(file);
    const seen = await facesIn(await sampleFrames(file, src.durationSec, workDir));
    const at = await overlay(logo, src.video, seen, workDir);
    const out = path.join(workDir, "marked-output.mp4");
    // the same H.264 settings as the local engine's renders (local.filters.ts), at the source's own frame rate
    await ffmpeg([
      ...["-i", file, "-i", at.file, "-filter_complex", `[0:v][1:v]overlay=${at.left}:${at.top},format=yuv420p[v]`],
      ...["-map", "[v]", "-map", "0:a?", "-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-c:a", "copy", "-movflags", "+faststart", out],
    ]);
    return { out, seen, corner: at.corner };
  }

  async function mark(r: EngineResult, logo: Buffer): Promise<MarkedResult> {
    const aspect = await aspectOf(logo);
    const replaced = (f: EngineFile, p: string): EngineFile => ({ ...f, path: p });
    if (r.main.mime === "video/mp4") {
      const { out, seen, corner } = await markVideo(r.main.path, logo);
      return { ...r, main: replaced(r.main, out), poster: replaced(r.poster, (await markPicture(r.poster.path, logo, aspect, seen)).out), mark: corner };
    }
    const markOne = async (f: EngineFile) => {
      const seen = await facesIn([await fs.readFile(f.path)]);
      const marked = await markPicture(f.path, logo, aspect, seen);
      return { file: replaced(f, marked.out), seen, corner: marked.corner };
    };
    const [main, ...extra] = await Promise.all([r.main, ...r.extra].map(markOne));
    // the poster is the first image made smaller: the same faces, the same corner; a batch records its first picture's
    const poster = replaced(r.poster, (await markPicture(r.poster.path, logo, aspect, main.seen)).out);
    return { ...r, main: main.file, extra: extra.map((e) => e.file), poster, mark: main.corner };
  }

  return { mark, overlay, facesOf };
}

export type Marker = ReturnType<typeof createMarker>;

export interface WatermarkDeps {
  db: Db;
  credits: Pick<CreditsService, "paidWithMoney">;
  storage: MediaStorage;
  faces: Pick<FaceAnalyser, "detect">;
  log: Logger;
}

/**
 * The watermark step of the output pipeline (issue 33 item 7, docs/decisions/296): free and guest output carries the
 * brand's logo, paid output never does. Applied once, to the finished files before they are stored, so every preview,
 * download, gallery cell and share shows the same marked file. Answers the result unchanged when nothing is marked,
 * with the corner of the mark its files carry. A follow-up of a marked result never gets a second mark (decision 316).
 */
export function createWatermark(deps: WatermarkDeps) {
  const { db, credits, storage } = deps;
  const marker = createMarker(deps);

  /** Free output: the setting is on and the task was not paid for with bought credits. */
  async function marks(task: GenerationTask): Promise<Buffer | null> {
    const brand = await storedBrand(db);
    if (!brand.watermark) return null;
    const paid = task.paidWith === "credits" && task.cost > 0 && (await credits.paidWithMoney(taskChargeKey(task.id)));
    if (paid) return null;
    // a logo file gone from storage must not fail the render: the product's mark stands in
    const logo = brand.logo
      ? await storage.get(brand.logo).catch((err: unknown) => void deps.log.warn({ err, logo: brand.logo }, "brand logo unreadable"))
      : null;
    return logo ?? fs.readFile(DEFAULT_MARK);
  }

  /**
   * Where a follow-up's source carries its mark (null: nowhere): as recorded when it was stored; for a result stored
   * before results recorded it, decision 296's rule applied to it again, in the corner its faces give (`shown` is a file
   * with the same pictures).
   */
  async function sourceMark(task: GenerationTask, shown: EngineFile): Promise<Corner | null> {
    const source = task.followUpOfId ? await db.generationTask.findUnique({ where: { id: task.followUpOfId } }) : null;
    if (!source) return null;
    const recorded = (source.outputs as Partial<TaskOutputs> | null)?.mark;
    if (recorded !== undefined) return recorded;
    const logo = await marks(source);
    if (!logo) return null;
    const { width, height } = await (shown.mime === "video/mp4" ? mediaInfo(shown.path).then((p) => p.video!) : sharp(shown.path).metadata());
    return placeMark(width ?? 0, height ?? 0, await aspectOf(logo), await marker.facesOf(shown)).corner;
  }

  /**
   * One mark on a follow-up, never two (docs/decisions/316). An extension's new part alone is marked when it is free,
   * in the clip's own corner (else the corner clear of the faces of both parts), in the encode that fits it to the
   * clip, before it is joined after the clip's packets as they were stored. An upscale of a marked result carries the
   * mark the server upscaled with it and gets none of ours; of an unmarked one, it is marked like any output.
   */
  async function followUp(task: GenerationTask, r: EngineResult, logo: Buffer | null): Promise<MarkedResult> {
    if (!r.continues) {
      const source = await sourceMark(task, r.main);
      if (source) return { ...r, mark: source };
      return logo ? marker.mark(r, logo) : { ...r, mark: null };
    }
    const clip: EngineFile = { path: r.continues, mime: "video/mp4" };
    const source = await sourceMark(task, clip);
    if (!logo) return { ...(await joinContinuation(r)), mark: source };
    const seen = source ? [] : (await Promise.all([marker.facesOf(clip), marker.facesOf(r.main)])).flat();
    const over = await marker.overlay(logo, (await mediaInfo(clip.path)).video!, seen, path.dirname(r.main.path), source ?? undefined);
    return { ...(await joinContinuation(r, over)), mark: over.corner };
  }

  return async function watermark(task: GenerationTask, r: EngineResult): Promise<MarkedResult> {
    const logo = await marks(task);
    if (task.followUp) return followUp(task, r, logo);
    return logo ? marker.mark(r, logo) : { ...r, mark: null };
  };
}
