import type { RequestHandler } from "express";
import type { ApiRouter } from "../../http/api.ts";
import { MSG } from "../../http/messages.ts";
import { receiveFile } from "../../http/multipart.ts";
import { LIMITS } from "../uploads/uploads.service.ts";
import { provenanceAnswer, provenanceCheckBody } from "./provenance.schema.ts";
import type { ProvenanceService } from "./provenance.service.ts";

export function provenanceRoutes(api: ApiRouter, provenance: ProvenanceService, perIpHourly: RequestHandler) {
  api.post(
    "/api/provenance/check",
    {
      summary:
        "Was this made here? A picture or video (multipart `file`, ≤ 10 MB / 100 MB) or a `link` to one of our outputs, answered from its C2PA Content Credentials, else from our outputs' perceptual hashes; names no person or prompt",
      tags: ["provenance"],
      auth: "public",
      before: [perIpHourly, receiveFile(LIMITS.videoBytes, MSG.videoTooBig)],
      body: provenanceCheckBody,
      response: provenanceAnswer,
    },
    ({ req, body }) => provenance.check({ file: req.file, link: body.link }),
  );
}
