import { describe, expect, it } from "vitest";
import { signNotification, verifyNotificationSignature } from "./signature.ts";

/**
 * A known answer, computed outside the product (`printf '%s' "<t>.<body>" | openssl dgst -sha256 -hmac <secret>`):
 * every other test signs its notifications with signNotification itself, so a wrong scheme would agree with itself.
 */
const SECRET = "whsec_fixture_0123456789";
const T = 1733570000;
const BODY = '{"id":"sbevt_fixture","type":"payment.succeeded","data":{"order_no":"R-1"}}';
const V1 = "b94608e2abd33cc1a1938700fae585a4ecefa2175eeb2c16e544062828eaaaf1";

describe("sandbox notification signatures (Stripe's t=…,v1=… scheme)", () => {
  it("signs the fixture exactly as openssl's HMAC-SHA256 of '<t>.<body>' does", () => {
    expect(signNotification(SECRET, BODY, T)).toBe(`t=${T},v1=${V1}`);
  });

  it("accepts the fixture's signature within the tolerance, and refuses it altered, late or under another secret", () => {
    const header = `t=${T},v1=${V1}`;
    expect(verifyNotificationSignature(SECRET, Buffer.from(BODY), header, T + 299)).toBe(true);
    expect(verifyNotificationSignature(SECRET, Buffer.from(BODY.replace("R-1", "R-2")), header, T)).toBe(false);
    expect(verifyNotificationSignature(SECRET, Buffer.from(BODY), header, T + 301)).toBe(false);
    expect(verifyNotificationSignature("another_secret_0123456", Buffer.from(BODY), header, T)).toBe(false);
    // a rotated secret: Stripe sends one v1 per secret, any matching one will do
    const other = "72b52b5f7a3976cf0491809d9b5229708d7907a98bf4d871b9eeba3bb54dfc26";
    expect(verifyNotificationSignature("another_secret_0123456", Buffer.from(BODY), `t=${T},v1=${V1},v1=${other}`, T)).toBe(true);
  });
});
