import { AUDIO_TYPES, IMAGE_TYPES, UPLOAD_LIMITS as LIMITS, UPLOAD_MESSAGES, VIDEO_TYPES } from "../../../../server/src/contract/uploads.ts";

/**
 * SPEC.md §5 upload rules, checked in the browser before anything is sent (the server checks them again, by
 * content). The limits and messages are the server's own (docs/decisions/025), so one translation covers both.
 */
export { AUDIO_TYPES, IMAGE_TYPES, LIMITS, UPLOAD_MESSAGES, VIDEO_TYPES };

const IMAGE_MIME = new Set(["image/png", "image/jpeg", "image/webp", "image/bmp", "image/x-ms-bmp"]);

function extension(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot >= 0 ? name.slice(dot + 1).toLowerCase() : "";
}

export function imageProblem(file: File): string | null {
  const typeOk = file.type ? IMAGE_MIME.has(file.type) : (IMAGE_TYPES as readonly string[]).includes(extension(file.name));
  if (!typeOk) return UPLOAD_MESSAGES.imageFormat;
  if (file.size > LIMITS.imageBytes) return UPLOAD_MESSAGES.imageTooBig;
  return null;
}

export function mediaFileProblem(kind: "audio" | "video", file: File): string | null {
  if (kind === "audio") {
    const typeOk = file.type.startsWith("audio/") || (AUDIO_TYPES as readonly string[]).includes(extension(file.name));
    if (!typeOk) return UPLOAD_MESSAGES.audioFormat;
    if (file.size > LIMITS.audioBytes) return UPLOAD_MESSAGES.audioTooBig;
    return null;
  }
  const typeOk = file.type.startsWith("video/") || (VIDEO_TYPES as readonly string[]).includes(extension(file.name));
  if (!typeOk) return UPLOAD_MESSAGES.videoUnparsable;
  if (file.size > LIMITS.videoBytes) return UPLOAD_MESSAGES.videoTooBig;
  return null;
}

/** The length rules once the browser has read the file's duration (null = it could not be decoded). */
export function durationProblem(kind: "audio" | "video", seconds: number | null): string | null {
  if (kind === "audio") {
    if (seconds === null) return UPLOAD_MESSAGES.audioFormat;
    if (seconds > LIMITS.audioSourceSec) return UPLOAD_MESSAGES.audioTooLong;
    if (seconds < LIMITS.trimMinSec) return UPLOAD_MESSAGES.trimLength;
    return null;
  }
  if (seconds === null) return UPLOAD_MESSAGES.videoUnparsable;
  if (seconds > LIMITS.videoMaxSec + 0.05) return UPLOAD_MESSAGES.videoTooLong;
  if (seconds < LIMITS.videoMinSec - 0.05) return UPLOAD_MESSAGES.videoTooShort;
  return null;
}

export function trimProblem(start: number, end: number, duration: number): string | null {
  if (!(start >= 0) || !(end > start) || end > duration + 0.05) return UPLOAD_MESSAGES.trimInvalid;
  const length = end - start;
  if (length < LIMITS.trimMinSec - 1e-6 || length > LIMITS.trimMaxSec + 1e-6) return UPLOAD_MESSAGES.trimLength;
  return null;
}

/** Reads a media file's duration with the browser's own decoder; null when it cannot be parsed. */
export function readDuration(kind: "audio" | "video", file: File): Promise<number | null> {
  return new Promise((resolve) => {
    const el = document.createElement(kind);
    const url = URL.createObjectURL(file);
    const done = (value: number | null) => {
      URL.revokeObjectURL(url);
      el.removeAttribute("src");
      resolve(value);
    };
    const timer = setTimeout(() => done(null), 10_000);
    el.preload = "metadata";
    el.onloadedmetadata = () => {
      clearTimeout(timer);
      done(Number.isFinite(el.duration) ? el.duration : null);
    };
    el.onerror = () => {
      clearTimeout(timer);
      done(null);
    };
    el.src = url;
  });
}
