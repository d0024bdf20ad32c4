import path from "node:path";
import { Worker } from "node:worker_threads";
import sharp from "sharp";
import { PROJECT_DIR } from "../paths.ts";

export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface FoundFace {
  /** In the pixels of the image passed in. */
  box: FaceBox;
  score: number;
  /** Apparent age in years (±5 or so): a hint for review, never a verdict. */
  age: number | null;
  /** Head turn in radians, left/right. */
  yaw: number | null;
  /** Human's anti-spoof score, 0..1: a real face rather than a picture of one (printed, on a screen); null unless asked for. */
  real: number | null;
  /** Human's liveness score, 0..1: a live face rather than a replayed one; null unless asked for. */
  live: number | null;
  descriptor: number[];
}

/** The face model, shared by training (issue 14) and upload screening (issue 19). One per process. */
export interface FaceAnalyser {
  /** `liveness` also runs the anti-spoof and liveness models (the consent selfie, decision 170). */
  detect(image: Buffer, opts?: { liveness?: boolean }): Promise<FoundFace[]>;
  close(): Promise<void>;
}

/** Images are shrunk to this before detection: faces in training photos are large, and it keeps a check near 0.3 s. */
const DETECT_SIDE = 640;
const WORKER_FILE = path.join(PROJECT_DIR, "server/src/faces/face-worker.js");

/**
 * Human's own default descriptor similarity (match.similarity: squared Euclidean distance times 25, square-rooted,
 * mapped from 0.2..0.8 onto 0..1): the same person scores about 0.5 and up, strangers well below.
 */
export function faceSimilarity(a: number[], b: number[]): number {
  if (a.length === 0 || a.length !== b.length) return 0;
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] - b[i]) ** 2;
  const distance = 25 * sum;
  if (distance === 0) return 1;
  const s = (1 - Math.sqrt(distance) / 100 - 0.2) / (0.8 - 0.2);
  return Math.max(0, Math.min(1, s));
}

/**
 * Runs Human (WASM backend, weights from the npm package, nothing downloaded) in one worker thread, started on the
 * first call and kept for the life of the process: the request thread never blocks on the model, and the WASM and
 * weights load once (~1 s).
 */
function createFaceAnalyser(): FaceAnalyser {
  let worker: Worker | undefined;
  let seq = 0;
  const waiting = new Map<number, { resolve: (f: FoundFace[]) => void; reject: (e: Error) => void }>();

  function thread(): Worker {
    if (worker) return worker;
    const w = new Worker(WORKER_FILE, { workerData: { maxFaces: 5 } });
    w.unref();
    w.on("message", (m: { id: number; faces?: FoundFace[]; error?: string }) => {
      const p = waiting.get(m.id);
      if (!p) return;
      waiting.delete(m.id);
      if (m.error) p.reject(new Error(`face model: ${m.error}`));
      else p.resolve(m.faces ?? []);
    });
    const failAll = (err: Error) => {
      for (const p of waiting.values()) p.reject(err);
      waiting.clear();
      worker = undefined;
    };
    w.on("error", failAll);
    w.on("exit", (code) => failAll(new Error(`face model thread exited (${code})`)));
    worker = w;
    return w;
  }

  return {
    async detect(image, opts = {}) {
      const { data, info } = await sharp(image)
        .rotate()
        .removeAlpha()
        .resize({ width: DETECT_SIDE, height: DETECT_SIDE, fit: "inside", withoutEnlargement: true })
        .raw()
        .toBuffer({ resolveWithObject: true });
      const meta = await sharp(image).rotate().metadata();
      const scale = (meta.autoOrient?.width ?? meta.width ?? info.width) / info.width;
      const id = ++seq;
      const faces = await new Promise<FoundFace[]>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        const rgb = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
        thread().postMessage({ id, width: info.width, height: info.height, rgb, liveness: opts.liveness === true }, [rgb as ArrayBuffer]);
      });
      return faces.map((f) => ({ ...f, box: { x: f.box.x * scale, y: f.box.y * scale, width: f.box.width * scale, height: f.box.height * scale } }));
    },
    async close() {
      const w = worker;
      worker = undefined;
      if (w) await w.terminate();
    },
  };
}

let shared: FaceAnalyser | undefined;

/** The process's one face analyser. */
export function faceAnalyser(): FaceAnalyser {
  return (shared ??= createFaceAnalyser());
}
