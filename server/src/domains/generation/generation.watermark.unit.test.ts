import { describe, expect, it } from "vitest";
import { MARK, placeMark } from "./generation.watermark.ts";

const centreOf = (b: { left: number; top: number; width: number; height: number }) => ({ x: b.left + b.width / 2, y: b.top + b.height / 2 });
const covers = (b: { left: number; top: number; width: number; height: number }, x: number, y: number) =>
  x >= b.left && x < b.left + b.width && y >= b.top && y < b.top + b.height;

describe("where the watermark goes", () => {
  it("is the bottom-right corner when no face is seen, sized by the short side, inside the picture", () => {
    const at = placeMark(1024, 576, 1, []);
    const side = Math.round(576 * MARK.share);
    const margin = Math.round(576 * MARK.margin);
    expect(at).toEqual({ corner: "bottom-right", left: 1024 - side - margin, top: 576 - side - margin, width: side, height: side });
    // a wide logo keeps its proportions
    expect(placeMark(1024, 576, 4, [])).toMatchObject({ width: side, height: Math.round(side / 4) });
  });

  it("is the corner farthest from the faces, and never over a face's centre", () => {
    const cases = [
      { face: { x: 0.75, y: 0.7, width: 0.2, height: 0.25 }, corner: "top-left" },
      { face: { x: 0.05, y: 0.05, width: 0.2, height: 0.2 }, corner: "bottom-right" },
      { face: { x: 0.7, y: 0.05, width: 0.25, height: 0.3 }, corner: "bottom-left" },
      { face: { x: 0.05, y: 0.7, width: 0.2, height: 0.25 }, corner: "top-right" },
    ] as const;
    for (const { face, corner } of cases) {
      const at = placeMark(800, 600, 1, [face]);
      expect(at.corner, JSON.stringify(face)).toBe(corner);
      expect(covers(at, (face.x + face.width / 2) * 800, (face.y + face.height / 2) * 600)).toBe(false);
    }
  });

  it("keeps clear of the nearest of several faces", () => {
    // two faces on the left half: the right-hand corner farther from both wins
    const faces = [
      { x: 0.1, y: 0.1, width: 0.15, height: 0.2 },
      { x: 0.2, y: 0.6, width: 0.15, height: 0.2 },
    ];
    const at = placeMark(1000, 1000, 1, faces);
    expect(at.corner).toBe("top-right");
    const c = centreOf(at);
    for (const f of faces) expect(Math.hypot(c.x - (f.x + f.width / 2) * 1000, c.y - (f.y + f.height / 2) * 1000)).toBeGreaterThan(500);
  });
});
