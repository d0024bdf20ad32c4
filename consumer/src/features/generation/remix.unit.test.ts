import { describe, expect, it } from "vitest";
import type { GalleryItemDetail } from "../gallery/gallery.api.ts";
import { remixOf } from "./remix.ts";

const item = (settings: GalleryItemDetail["settings"]) =>
  ({ id: 7, nickname: "Mika", action: "image_to_video", template_id: null, settings }) as unknown as GalleryItemDetail;

describe("use these settings", () => {
  it("carries the words and controls, a camera move included, and an aspect the studio lacks is left to the photo", () => {
    const remix = remixOf(item({ prompt: "waves", negative_prompt: "text", seed: 42, strength: 0.3, aspect: "3:4", camera: "zoom_in", duration: 10 }));
    expect(remix).toMatchObject({ id: 7, prompt: "waves", camera: "zoom_in", duration: 10 });
    expect(remix.settings).toEqual({ aspect: "auto", negative_prompt: "text", seed: "42", strength: 0.3 });
  });
});
