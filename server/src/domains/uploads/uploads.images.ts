import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import { mediaKey, type MediaStorage } from "../../storage/storage.ts";
import type { ScreeningVerdict, UploadScreener } from "../screening/screening.service.ts";
import { checkedImage, normaliseImage, type IncomingFile } from "./uploads.checks.ts";
import type { UploadView } from "./uploads.reads.ts";
import { sha, type StoreUpload } from "./uploads.store.ts";

type NormalisedImage = Awaited<ReturnType<typeof normaliseImage>>;

/** Image uploads: a person's photo, or a picture one of their generations made. */
export function createImageUploads(storage: MediaStorage, screener: UploadScreener, store: StoreUpload) {
  /** A re-encoded image stored with its thumbnail. */
  function storeImage(userId: number, img: NormalisedImage, sha256: string, consentAt: Date | null, verdict: ScreeningVerdict): Promise<UploadView> {
    return store(
      userId,
      "image",
      [
        { key: mediaKey(userId, "uploads", img.ext), data: img.data, mime: img.mime },
        { key: mediaKey(userId, "thumbs", "jpg"), data: img.thumb, mime: "image/jpeg" },
      ],
      { mime: img.mime, sizeBytes: img.data.length, width: img.width, height: img.height, sha256, consentAt },
      verdict,
    );
  }

  return {
    async uploadImage(userId: number, file: IncomingFile | undefined, o: { consent: boolean }): Promise<UploadView> {
      if (!file) throw HttpError.badRequest(MSG.fileRequired);
      if (!o.consent) throw HttpError.badRequest(MSG.consentRequired);
      const img = await checkedImage(file);
      // screened before anything can be generated from it (issue 19): blocked media is refused, a young-looking face held
      const verdict = await screener.screenImage(userId, img.data);
      return storeImage(userId, img, await sha(file.buffer), new Date(), verdict);
    },

    /**
     * A picture one of the caller's generations made, kept as their own image upload (a copy: generation results
     * expire, an avatar must not). No consent attestation: nobody's photo was uploaded.
     */
    async keepGeneratedImage(userId: number, key: string): Promise<UploadView> {
      const buf = await storage.get(key);
      const img = await normaliseImage(buf);
      // a generated face is screened like an uploaded one: a character that looks young is held for review
      const verdict = await screener.screenImage(userId, img.data);
      return storeImage(userId, img, await sha(buf), null, verdict);
    },
  };
}
