import crypto from "node:crypto";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function newTotpSecret(): string {
  const bytes = crypto.randomBytes(20);
  let bits = "";
  for (const b of bytes) bits += b.toString(2).padStart(8, "0");
  let out = "";
  for (let i = 0; i + 5 <= bits.length; i += 5) out += ALPHABET[parseInt(bits.slice(i, i + 5), 2)];
  return out;
}

function base32Decode(secret: string): Buffer {
  let bits = "";
  for (const ch of secret.replace(/=+$/, "").toUpperCase()) {
    const v = ALPHABET.indexOf(ch);
    if (v < 0) throw new Error("invalid base32");
    bits += v.toString(2).padStart(5, "0");
  }
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** RFC 6238 time-based one-time code (SHA-1, 30 s steps, 6 digits), what authenticator apps show. */
export function totpCode(secret: string, at = Date.now(), step = 30): string {
  const counter = Math.floor(at / 1000 / step);
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const hmac = crypto.createHmac("sha1", base32Decode(secret)).update(msg).digest();
  const offset = hmac[hmac.length - 1] & 0xf;
  const value = (hmac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return value.toString().padStart(6, "0");
}

/** The 30-second step a time falls in: the counter of RFC 6238. */
export function totpStep(at = Date.now()): number {
  return Math.floor(at / 30_000);
}

/**
 * The step whose code this is, trying the current step and one either side for clock drift; null when none
 * matches. The caller must still refuse a step it has accepted before.
 */
export function matchingTotpStep(secret: string, code: string, at = Date.now()): number | null {
  const given = Buffer.from(code.padEnd(6, " ").slice(0, 6));
  let matched: number | null = null;
  // every candidate is compared, so the time taken does not tell which one matched
  for (const d of [-1, 0, 1]) {
    const step = totpStep(at) + d;
    if (crypto.timingSafeEqual(Buffer.from(totpCode(secret, step * 30_000)), given)) matched = step;
  }
  return matched;
}

export function otpauthUri(username: string, secret: string): string {
  return `otpauth://totp/Reverie:${encodeURIComponent(username)}?secret=${secret}&issuer=Reverie`;
}
