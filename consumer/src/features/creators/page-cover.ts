import type { UploadResult } from "../uploads/uploads.api.ts";

/**
 * The page draft after its cover picker changed: a photo just picked is the cover; taking it off again goes back to the
 * cover the page has saved (none for a new page), not to the photo just taken off.
 */
export function withCover<D extends { cover: UploadResult | null; cover_id: number | null }>(
  draft: D,
  cover: UploadResult | null,
  savedCoverId: number | null,
): D {
  return { ...draft, cover, cover_id: cover ? cover.id : savedCoverId };
}
