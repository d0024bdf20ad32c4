import { z } from "zod";
import type { Action, Subject } from "../authz/abilities.ts";
import type { ApiRouter } from "../http/api.ts";
import { cookie } from "../http/client-context.ts";
import { sendStored } from "./serve.ts";
import type { MediaStorage } from "./storage.ts";

/** The media pass's answer: how long its cookie lasts. */
export const mediaPassAnswer = z.object({ expires_in: z.number() });

/** Files signed for one viewer, served by one route, and the media pass a <video> element sends to it (decisions 217, 248). */
export interface SignedMedia<Q extends z.ZodObject> {
  tags: string[];
  /** the pass's route, its summary and permission, and its cookie (sent only to `mediaPath`) */
  passPath: string;
  passSummary: string;
  passCan: [Action, Subject];
  cookie: string;
  /** the file's route, its summary and its signed query */
  mediaPath: string;
  mediaSummary: string;
  query: Q;
  pass(userId: number, sessionId: number): { value: string; maxAgeSeconds: number };
  passViewer(value: string | undefined): Promise<number | null>;
  /** the file's key for this requester (their token, or the viewer their pass names), checked on every request */
  file(requesterId: number | null, q: z.infer<Q>): Promise<{ key: string }>;
}

/**
 * The two routes of members-only library files and message files alike: the pass sets an http-only cookie for the
 * file route alone; the file route reads the token or the pass, asks its owner for the key and streams it, a range at
 * a time when the player asks for one, never cached (everything is checked again on the next request).
 */
export function signedMediaRoutes<Q extends z.ZodObject>(api: ApiRouter, storage: Pick<MediaStorage, "size" | "stream">, m: SignedMedia<Q>) {
  api.post(m.passPath, { summary: m.passSummary, tags: m.tags, auth: "user", can: m.passCan, response: mediaPassAnswer }, ({ principal, req, res }) => {
    const pass = m.pass(principal.userId, principal.sessionId);
    // only the media route ever receives it, never a cross-site request, never a script
    res.cookie(m.cookie, pass.value, { httpOnly: true, sameSite: "lax", secure: req.secure, maxAge: pass.maxAgeSeconds * 1000, path: m.mediaPath });
    return { expires_in: pass.maxAgeSeconds };
  });
  api.get(
    m.mediaPath,
    {
      summary: m.mediaSummary,
      tags: m.tags,
      auth: "public",
      query: m.query,
      response: { kind: "file", contentType: "application/octet-stream", description: "The file, in its own content type (206 for a Range request)" },
    },
    async ({ principal, query, req, res }) => {
      const requester = principal.kind === "user" ? principal.userId : await m.passViewer(cookie(req, m.cookie));
      const file = await m.file(requester, query as z.infer<Q>);
      await sendStored(req, res, storage, file.key, { "Cache-Control": "no-store" });
      return undefined;
    },
  );
}
