import crypto from "node:crypto";

/** Sealed values carry their format version, so a later key or cipher change can tell old rows apart. */
const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM with a key from config (SECRETS_KEY). `context` is authenticated but not stored: a value sealed for
 * one channel's Meta token cannot be copied into another row and opened there.
 */
export interface SecretBox {
  seal(plain: string, context: string): string;
  /** throws when the value was not sealed with this key for this context */
  open(sealed: string, context: string): string;
}

export function keyFromSetting(setting: string): Buffer {
  return /^[0-9a-f]{64}$/i.test(setting) ? Buffer.from(setting, "hex") : Buffer.from(setting, "base64");
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error("the secret store key must be 32 bytes");
  return {
    seal(plain, context) {
      const iv = crypto.randomBytes(IV_BYTES);
      const cipher = crypto.createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(Buffer.from(context, "utf8"));
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64")}`;
    },
    open(sealed, context) {
      const [version, data] = sealed.split(":", 2);
      if (version !== VERSION || !data) throw new Error("unknown sealed secret format");
      const raw = Buffer.from(data, "base64");
      const decipher = crypto.createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(context, "utf8"));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
    },
  };
}
