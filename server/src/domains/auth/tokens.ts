import crypto from "node:crypto";

/** A login token: 32 random bytes; only its SHA-256 is stored, so a leaked database yields no usable tokens. */
export function newToken(): { token: string; hash: string } {
  const token = crypto.randomBytes(32).toString("base64url");
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}
