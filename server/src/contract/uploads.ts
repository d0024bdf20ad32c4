/**
 * SPEC.md §5 upload rules and their messages: the one definition behind the server's checks (by content) and the
 * consumer app's checks before anything is sent. The consumer app bundles this file, so it imports nothing
 * (docs/decisions/025, 050). The app translates the messages by these exact English strings.
 */
/** Equals Prisma's UploadKind enum. */
export const UPLOAD_KINDS = ["image", "audio", "video"] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

export const IMAGE_TYPES = ["png", "jpg", "jpeg", "webp", "bmp"] as const;
export const AUDIO_TYPES = ["mp3", "wav", "m4a", "aac", "ogg", "flac"] as const;
export const VIDEO_TYPES = ["mp4", "mov", "webm", "m4v"] as const;

export const UPLOAD_LIMITS = {
  imageBytes: 10 * 1024 * 1024,
  audioBytes: 50 * 1024 * 1024,
  videoBytes: 100 * 1024 * 1024,
  audioSourceSec: 5 * 60,
  trimMinSec: 4,
  trimMaxSec: 30,
  videoMinSec: 4,
  videoMaxSec: 30,
} as const;

export const UPLOAD_MESSAGES = {
  imageFormat: `Incorrect image format, please upload ${IMAGE_TYPES.join(", ")} format!`,
  imageTooBig: "The image size of the uploaded image cannot exceed 10MB!",
  imageUnreadable: "Image format incorrect",
  audioFormat: `Incorrect audio format, please upload ${AUDIO_TYPES.join(", ")} format!`,
  audioTooBig: "The audio file cannot exceed 50MB!",
  audioTooLong: "The audio cannot be longer than 5 minutes",
  trimInvalid: "The trim range is invalid",
  trimLength: "The trimmed audio must be 4-30 seconds long",
  videoTooBig: "The video file cannot exceed 100MB!",
  videoUnparsable: "Cannot parse video file",
  videoTooLong: "Video duration exceeds limit",
  videoTooShort: "The video must be at least 4 seconds long",
  choosePicture: "Please choose a picture first",
} as const;
