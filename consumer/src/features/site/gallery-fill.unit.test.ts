import { describe, expect, it } from "vitest";
import { examplesToShow, GALLERY_CELLS } from "./gallery-fill.ts";

const templates = Array.from({ length: 12 }, (_, i) => ({ id: i, preview_url: i === 3 ? null : `/media/p${i}.mp4` }));

describe("the home gallery's examples", () => {
  it("fill an empty gallery's first screenful with templates that have a preview", () => {
    const shown = examplesToShow(0, templates);
    expect(shown).toHaveLength(GALLERY_CELLS);
    expect(shown.every((t) => t.preview_url)).toBe(true);
  });

  it("give way one by one to shared creations, and are gone once creations fill the screenful", () => {
    expect(examplesToShow(3, templates)).toHaveLength(GALLERY_CELLS - 3);
    expect(examplesToShow(GALLERY_CELLS, templates)).toEqual([]);
    expect(examplesToShow(GALLERY_CELLS + 5, templates)).toEqual([]);
  });
});
