import { describe, expect, it } from "vitest";
import type { UploadResult } from "../uploads/uploads.api.ts";
import { withCover } from "./page-cover.ts";

const photo = (id: number) => ({ id }) as UploadResult;

describe("a page's cover while its form is edited", () => {
  it("is the photo just picked, and none again once a new page's photo is taken off", () => {
    const picked = withCover({ title: "", cover: null, cover_id: null }, photo(7), null);
    expect(picked.cover_id).toBe(7);
    expect(withCover(picked, null, null)).toMatchObject({ cover: null, cover_id: null });
  });

  it("goes back to the saved cover when a photo picked on the edit screen is taken off", () => {
    const picked = withCover({ title: "", cover: null, cover_id: 3 }, photo(9), 3);
    expect(picked.cover_id).toBe(9);
    expect(withCover(picked, null, 3).cover_id).toBe(3);
  });
});
