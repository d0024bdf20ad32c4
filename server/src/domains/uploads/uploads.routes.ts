import type { RequestHandler } from "express";
import type { ApiRouter } from "../../http/api.ts";
import { MSG } from "../../http/messages.ts";
import { receiveFile } from "../../http/multipart.ts";
import { fileUploadBody, idQuery, uploadAnswer, mediaUploadBody, pageQuery, uploadListAnswer, uploadListQuery } from "./uploads.schema.ts";
import { LIMITS, type UploadsService } from "./uploads.service.ts";

export function uploadsRoutes(api: ApiRouter, uploads: UploadsService, limits: { perUserHourly: RequestHandler; atOnce: RequestHandler }) {
  const { perUserHourly, atOnce } = limits;
  const tags = ["uploads"];
  const image = receiveFile(LIMITS.imageBytes, MSG.imageTooBig);
  for (const path of ["/api/ImageUpload/upload", "/api/ImageUpload/upload2"]) {
    api.post(
      path,
      {
        summary: "Upload a photo (png, jpg, jpeg, webp, bmp ≤ 10 MB; `consent`=1 required); answers id and file_url",
        tags,
        auth: "user",
        can: ["create", "Upload"],
        before: [atOnce, perUserHourly, image],
        body: mediaUploadBody,
        response: uploadAnswer,
      },
      ({ principal, req, body }) => uploads.uploadImage(principal.userId, req.file, body),
    );
  }
  api.post(
    "/api/ImageUpload/videoFromMedia",
    {
      summary: "Upload a video (≤ 100 MB, 4-30 s; `consent`=1 required)",
      tags,
      auth: "user",
      can: ["create", "Upload"],
      before: [atOnce, perUserHourly, receiveFile(LIMITS.videoBytes, MSG.videoTooBig)],
      body: mediaUploadBody,
      response: uploadAnswer,
    },
    ({ principal, req, body }) => uploads.uploadVideo(principal.userId, req.file, body),
  );
  api.post(
    "/api/ImageUpload/audioFromMedia",
    {
      summary: "Upload audio (≤ 50 MB, ≤ 5 min) trimmed to `start`..`end` seconds (4-30 s)",
      tags,
      auth: "user",
      can: ["create", "Upload"],
      before: [atOnce, perUserHourly, receiveFile(LIMITS.audioBytes, MSG.audioTooBig)],
      body: mediaUploadBody,
      response: uploadAnswer,
    },
    ({ principal, req, body }) => uploads.uploadAudio(principal.userId, req.file, body),
  );
  api.post(
    "/api/Fileuploads/upload",
    {
      summary: "Upload a file of `upload_type` image, audio or video (same rules as the specific calls)",
      tags,
      auth: "user",
      can: ["create", "Upload"],
      before: [atOnce, perUserHourly, receiveFile(LIMITS.videoBytes, MSG.videoTooBig)],
      body: fileUploadBody,
      response: uploadAnswer,
    },
    ({ principal, req, body }) => {
      if (body.upload_type === "image") return uploads.uploadImage(principal.userId, req.file, body);
      if (body.upload_type === "video") return uploads.uploadVideo(principal.userId, req.file, body);
      return uploads.uploadAudio(principal.userId, req.file, body);
    },
  );
  api.get(
    "/api/ImageUpload/uploadList",
    { summary: "The caller's uploads, newest first", tags, auth: "user", can: ["read", "Upload"], query: uploadListQuery, response: uploadListAnswer },
    ({ principal, query }) => uploads.list(principal.userId, query),
  );
  api.get(
    "/api/ImageUpload/imageList",
    { summary: "The caller's uploaded photos, newest first", tags, auth: "user", can: ["read", "Upload"], query: pageQuery, response: uploadListAnswer },
    ({ principal, query }) => uploads.list(principal.userId, { ...query, type: "image" }),
  );
  api.get(
    "/api/ImageUpload/uploadDetails2",
    { summary: "One of the caller's uploads", tags, auth: "user", can: ["read", "Upload"], query: idQuery, response: uploadAnswer },
    ({ principal, query }) => uploads.details(principal.userId, query.id),
  );
}
