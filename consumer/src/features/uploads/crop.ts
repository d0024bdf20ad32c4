/** Pan-and-zoom crop geometry: an image covering a frame, moved and scaled by the user, cut out by a canvas. */

export interface CropView {
  /** image top-left relative to the frame, in screen pixels */
  x: number;
  y: number;
  zoom: number;
}

export interface Size {
  width: number;
  height: number;
}

export function coverScale(image: Size, frame: Size): number {
  return Math.max(frame.width / image.width, frame.height / image.height);
}

/** Keeps the frame fully covered by the image whatever the user drags or zooms to. */
export function clampView(view: CropView, image: Size, frame: Size): CropView {
  const scale = coverScale(image, frame) * view.zoom;
  const minX = frame.width - image.width * scale;
  const minY = frame.height - image.height * scale;
  return { zoom: view.zoom, x: Math.min(0, Math.max(minX, view.x)), y: Math.min(0, Math.max(minY, view.y)) };
}

export function centredView(image: Size, frame: Size, zoom = 1): CropView {
  const scale = coverScale(image, frame) * zoom;
  return { zoom, x: (frame.width - image.width * scale) / 2, y: (frame.height - image.height * scale) / 2 };
}

/** The part of the image (in its own pixels) that the frame shows. */
export function cropRect(view: CropView, image: Size, frame: Size) {
  const scale = coverScale(image, frame) * view.zoom;
  return { sx: -view.x / scale, sy: -view.y / scale, sw: frame.width / scale, sh: frame.height / scale };
}

/** Long side of the cropped output: enough for 720P, small enough to upload fast. */
export const OUTPUT_LONG_SIDE = 1440;

export async function renderCrop(img: HTMLImageElement, view: CropView, frame: Size): Promise<Blob> {
  const image = { width: img.naturalWidth, height: img.naturalHeight };
  const { sx, sy, sw, sh } = cropRect(view, image, frame);
  const factor = Math.min(1, OUTPUT_LONG_SIDE / Math.max(sw, sh));
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(sw * factor));
  canvas.height = Math.max(1, Math.round(sh * factor));
  const ctx = canvas.getContext("2d")!;
  ctx.imageSmoothingQuality = "high";
  ctx.drawImage(img, sx, sy, sw, sh, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error("crop failed"))), "image/jpeg", 0.92));
}
