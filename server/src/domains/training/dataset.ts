import crypto from "node:crypto";
import { zipSync } from "fflate";
import sharp from "sharp";
import { dHash, hammingDistance, NEAR_DUPLICATE_BITS } from "./dhash.ts";

export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface DatasetPhoto {
  uploadId: number;
  /** The stored (already checked and re-encoded) upload. */
  image: Buffer;
  /** The one face the checks found; crops centre on it. */
  face?: FaceBox;
}

export interface PreparedDataset {
  zip: Buffer;
  /** Upload ids in the order they were kept. */
  kept: number[];
  /** Near-duplicates left out, each with the photo it repeats. */
  dropped: { uploadId: number; duplicateOf: number }[];
  manifest: DatasetManifest;
}

export interface DatasetManifest {
  trigger_word: string;
  resolution: number;
  base_model: string;
  images: { file: string; caption_file: string; caption: string; upload_id: number; sha256: string; dhash: string }[];
  dropped: { upload_id: number; duplicate_of: number; reason: "near_duplicate" }[];
}

/** How much of the frame around the face a crop keeps: the face about 40% of the side, enough hair and shoulders. */
const FACE_CONTEXT = 2.5;

/** A square inside the image, as large as the face context asks (never larger than the short side), centred on the face. */
export function squareAround(width: number, height: number, face?: FaceBox): { left: number; top: number; side: number } {
  const short = Math.min(width, height);
  if (!face) return { left: Math.floor((width - short) / 2), top: Math.floor((height - short) / 2), side: short };
  const side = Math.min(short, Math.max(64, Math.round(Math.max(face.width, face.height) * FACE_CONTEXT)));
  const cx = face.x + face.width / 2;
  const cy = face.y + face.height / 2;
  const left = Math.round(Math.min(Math.max(cx - side / 2, 0), width - side));
  const top = Math.round(Math.min(Math.max(cy - side / 2, 0), height - side));
  return { left, top, side };
}

export function captionFor(triggerWord: string): string {
  return `a photo of ${triggerWord}, a person`;
}

/**
 * Our half of training (ARCHITECTURE §6): near-duplicates dropped by dHash, face-centred square crops at the
 * trainer's resolution, one caption file per image carrying the trigger word, a manifest, all in one zip — the
 * layout both Replicate's and fal's Flux LoRA trainers read (image files with same-named .txt captions).
 */
export async function prepareDataset(photos: DatasetPhoto[], o: { triggerWord: string; resolution: number; baseModel: string }): Promise<PreparedDataset> {
  const files: Record<string, Uint8Array> = {};
  const manifest: DatasetManifest = { trigger_word: o.triggerWord, resolution: o.resolution, base_model: o.baseModel, images: [], dropped: [] };
  const seen: { uploadId: number; hash: bigint }[] = [];
  const kept: number[] = [];
  const dropped: PreparedDataset["dropped"] = [];
  for (const p of photos) {
    const hash = await dHash(p.image);
    const twin = seen.find((s) => hammingDistance(s.hash, hash) <= NEAR_DUPLICATE_BITS);
    if (twin) {
      dropped.push({ uploadId: p.uploadId, duplicateOf: twin.uploadId });
      manifest.dropped.push({ upload_id: p.uploadId, duplicate_of: twin.uploadId, reason: "near_duplicate" });
      continue;
    }
    seen.push({ uploadId: p.uploadId, hash });
    const img = sharp(p.image).rotate();
    const meta = await img.metadata();
    const { left, top, side } = squareAround(meta.width ?? 0, meta.height ?? 0, p.face);
    const crop = await img
      .extract({ left, top, width: side, height: side })
      .resize(o.resolution, o.resolution, { fit: "fill" })
      .jpeg({ quality: 95 })
      .toBuffer();
    const n = String(kept.length + 1).padStart(2, "0");
    const caption = captionFor(o.triggerWord);
    files[`${n}.jpg`] = crop;
    files[`${n}.txt`] = Buffer.from(caption);
    manifest.images.push({
      file: `${n}.jpg`,
      caption_file: `${n}.txt`,
      caption,
      upload_id: p.uploadId,
      sha256: crypto.createHash("sha256").update(crop).digest("hex"),
      dhash: hash.toString(16).padStart(16, "0"),
    });
    kept.push(p.uploadId);
  }
  files["manifest.json"] = Buffer.from(JSON.stringify(manifest, null, 2));
  // JPEGs do not compress further: store them, deflate only the text
  const zip = zipSync(files, { level: 0 });
  return { zip: Buffer.from(zip), kept, dropped, manifest };
}
