import { describe, expect, it } from "vitest";
import { matchingTotpStep, newTotpSecret, totpCode } from "./totp.ts";

/**
 * RFC 6238 Appendix B, SHA-1: the seed is the ASCII string "12345678901234567890", which is
 * GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ in base32 (what an authenticator app is given). The RFC lists 8-digit codes; an
 * app shows 6, the same value modulo 10^6, so each expected code is the RFC's last six digits.
 */
const RFC_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
const RFC_VECTORS: [unixSeconds: number, rfcCode: string][] = [
  [59, "94287082"],
  [1111111109, "07081804"],
  [1111111111, "14050471"],
  [1234567890, "89005924"],
  [2000000000, "69279037"],
  [20000000000, "65353130"],
];

describe("TOTP against RFC 6238's known answers", () => {
  it.each(RFC_VECTORS)("at %i s the code is the last six digits of %s", (seconds, rfcCode) => {
    expect(totpCode(RFC_SECRET, seconds * 1000)).toBe(rfcCode.slice(-6));
  });

  it("accepts a vector's code in its own step and one either side, and nothing two steps off", () => {
    const at = 1111111111 * 1000;
    const step = Math.floor(1111111111 / 30);
    expect(matchingTotpStep(RFC_SECRET, "050471", at)).toBe(step);
    expect(matchingTotpStep(RFC_SECRET, "050471", at + 30_000)).toBe(step);
    expect(matchingTotpStep(RFC_SECRET, "050471", at - 30_000)).toBe(step);
    expect(matchingTotpStep(RFC_SECRET, "050471", at + 60_000)).toBeNull();
    expect(matchingTotpStep(RFC_SECRET, "050472", at)).toBeNull();
  });

  it("reads the base32 secret case-insensitively and with padding, as apps and people write it", () => {
    expect(totpCode(RFC_SECRET.toLowerCase(), 59_000)).toBe("287082");
    expect(totpCode(`${RFC_SECRET}====`, 59_000)).toBe("287082");
  });

  it("makes new secrets of 160 bits in base32, as RFC 4226 recommends", () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
  });
});
