import crypto from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { MediaStorage } from "./media-storage.ts";

export interface LocalStorageOptions {
  root: string;
  secret: string;
  defaultTtl: number;
  /** Where outside servers reach this API (PUBLIC_URL), for `fetchableUrl`. */
  publicUrl: string;
}

/** The path of the route that serves local media (storage/storage.routes.ts). */
export const LOCAL_MEDIA_PATH = "/api/media/file";

const KEY_PATTERN = /^[a-z0-9][a-z0-9/_.-]*$/i;

/** Rejects keys that could leave the media root. */
export function assertSafeKey(key: string): void {
  if (!KEY_PATTERN.test(key) || key.split("/").some((part) => part === ".." || part === "." || part === "")) {
    throw new Error(`unsafe media key: ${key}`);
  }
}

export interface LocalMediaSigner {
  sign(key: string, expires: number): string;
  /** True when `sig` is this server's signature of key+expires and the time has not passed. */
  verify(key: string, expires: number, sig: string, now?: number): boolean;
}

export function localMediaSigner(secret: string): LocalMediaSigner {
  const sign = (key: string, expires: number) => crypto.createHmac("sha256", secret).update(`${key}\n${expires}`).digest("base64url");
  return {
    sign,
    verify(key, expires, sig, now = Date.now()) {
      if (!Number.isInteger(expires) || expires * 1000 < now) return false;
      const expected = Buffer.from(sign(key, expires));
      const given = Buffer.from(sig);
      return expected.length === given.length && crypto.timingSafeEqual(expected, given);
    },
  };
}

/**
 * Files under $DATA_DIR/media, served through HMAC-signed URLs (key + expiry) checked by the media route. The URLs
 * are relative (`/api/media/file?...`): the browser fetches them from whatever host name it reached Reverie by (a
 * phone on the LAN, 127.0.0.1, a proxy's name), so helmet's same-origin Cross-Origin-Resource-Policy holds.
 */
export function createLocalStorage(o: LocalStorageOptions): MediaStorage & { root: string; signer: LocalMediaSigner; fileOf(key: string): string } {
  const signer = localMediaSigner(o.secret);
  const fileOf = (key: string) => {
    assertSafeKey(key);
    return path.join(o.root, key);
  };
  async function writeAtomically(key: string, write: (tmp: string) => Promise<void>) {
    const file = fileOf(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString("hex")}.part`;
    await write(tmp);
    await fs.rename(tmp, file);
  }
  return {
    kind: "local",
    root: o.root,
    signer,
    fileOf,
    put: (key, body) => writeAtomically(key, (tmp) => fs.writeFile(tmp, body)),
    putFile: (key, src) => writeAtomically(key, (tmp) => fs.copyFile(src, tmp)),
    get: (key) => fs.readFile(fileOf(key)),
    async size(key) {
      try {
        return (await fs.stat(fileOf(key))).size;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw err;
      }
    },
    stream: async (key, range) => createReadStream(fileOf(key), range),
    toLocalFile: async (key) => fileOf(key),
    async exists(key) {
      try {
        await fs.access(fileOf(key));
        return true;
      } catch {
        return false;
      }
    },
    async delete(key) {
      await fs.rm(fileOf(key), { force: true });
    },
    async reachable() {
      try {
        await fs.mkdir(o.root, { recursive: true });
        await fs.access(o.root, fs.constants.W_OK);
        return true;
      } catch {
        return false;
      }
    },
    verifiedFile(key, expires, sig) {
      try {
        return signer.verify(key, expires, sig) ? fileOf(key) : null;
      } catch {
        return null;
      }
    },
    async signedUrl(key, ttl = o.defaultTtl, downloadAs) {
      assertSafeKey(key);
      const expires = Math.floor(Date.now() / 1000) + ttl;
      // the name is not signed: it changes only what the holder's own browser calls the file
      const q = new URLSearchParams({ key, expires: String(expires), sig: signer.sign(key, expires), ...(downloadAs ? { name: downloadAs } : {}) });
      return `${LOCAL_MEDIA_PATH}?${q}`;
    },
    async fetchableUrl(key, ttl = o.defaultTtl) {
      return `${o.publicUrl}${await this.signedUrl(key, ttl)}`;
    },
  };
}
