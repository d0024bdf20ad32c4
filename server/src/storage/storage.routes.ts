import { z } from "zod";
import type { ApiRouter } from "../http/api.ts";
import { HttpError } from "../http/errors.ts";
import { LOCAL_MEDIA_PATH } from "./local.storage.ts";
import type { MediaStorage } from "./storage.ts";

/** A download name as signedUrl's callers make them: letters, digits, dots, dashes and underscores. */
export const DOWNLOAD_NAME = /^[A-Za-z0-9._-]{1,100}$/;

const signedQuery = z.object({
  key: z.string().min(1).max(300),
  expires: z.coerce.number().int(),
  sig: z.string().min(1).max(100),
  name: z.string().regex(DOWNLOAD_NAME).optional(),
});

/** Serves local-disk media to holders of a valid, unexpired signed URL; anything else is a plain 404. */
export function mediaRoutes(api: ApiRouter, storage: MediaStorage) {
  api.get(
    LOCAL_MEDIA_PATH,
    {
      summary: "Media file behind a signed, expiring URL (local storage)",
      tags: ["media"],
      auth: "public",
      query: signedQuery,
      response: { kind: "file", contentType: "application/octet-stream", description: "The file, in its own content type" },
    },
    async ({ query, res }) => {
      const file = storage.verifiedFile?.(query.key, query.expires, query.sig);
      if (!file) throw HttpError.notFound();
      const maxAge = Math.max(0, query.expires - Math.floor(Date.now() / 1000));
      if (query.name) res.attachment(query.name);
      await new Promise<void>((resolve, reject) => {
        res.sendFile(file, { headers: { "Cache-Control": `private, max-age=${maxAge}` }, dotfiles: "deny" }, (err) => {
          if (!err) return resolve();
          if ((err as NodeJS.ErrnoException).code === "ENOENT" && !res.headersSent) return reject(HttpError.notFound());
          if (res.headersSent) return resolve();
          reject(err);
        });
      });
      return undefined;
    },
  );
}
