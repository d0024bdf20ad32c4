import { describe, expect, it } from "vitest";
import { outputKeyOfLink } from "./provenance.service.ts";

const BASE = "https://reverie.example";
const KEY = "u/7/outputs/0b5f2c1e-8a9d-4e1b-9c3f-2d6a7b8c9d0e.png";

describe("outputKeyOfLink", () => {
  it("reads an output's key from a signed local media link and from an S3 object URL", () => {
    expect(outputKeyOfLink(`/api/media/file?key=${encodeURIComponent(KEY)}&sig=x`, BASE)).toBe(KEY);
    expect(outputKeyOfLink(`https://bucket.s3.amazonaws.com/${KEY}`, BASE)).toBe(KEY);
  });

  it("names nothing for other keys, text that is no URL, or a path that is not valid percent-encoding", () => {
    expect(outputKeyOfLink("/api/media/file?key=../../etc/passwd", BASE)).toBeNull();
    expect(outputKeyOfLink("http://[not a host", BASE)).toBeNull();
    expect(outputKeyOfLink("https://example.com/%E0%A4%A", BASE)).toBeNull();
  });
});
