/**
 * The home gallery's first screenful. Shared creations come first; while there are fewer than this, the templates'
 * preview loops fill the remaining cells as examples, so a new install's gallery is never a blank area and real
 * creations push the examples out one by one (issue 31.3, docs/decisions/269).
 */
export const GALLERY_CELLS = 8;

/** The examples to show after `shared` creations: none once the creations fill the first screenful. */
export function examplesToShow<T extends { preview_url: string | null }>(shared: number, templates: T[]): T[] {
  return templates.filter((t) => t.preview_url).slice(0, Math.max(0, GALLERY_CELLS - shared));
}
