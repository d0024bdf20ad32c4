import { ENDED_TASK_STATUSES } from "../../contract/generation.ts";
import { openEventStream } from "../../http/sse.ts";
import type { ApiRouter } from "../../http/api.ts";
import type { EngineStatus } from "./engines/engine.ts";
import {
  deleteResultBody,
  deleteTaskAnswer,
  durationPointsBody,
  followUpBody,
  followUpQuoteAnswer,
  followUpQuoteBody,
  galleryAnswer,
  galleryItemAnswer,
  galleryItemQuery,
  galleryQuery,
  getDurationPointsAnswer,
  imageBatchBody,
  likeAnswer,
  likeBody,
  picVideoBody,
  progressData,
  roleVideoBody,
  setPublicAnswer,
  setPublicBody,
  streamQuery,
  submittedTask,
  taskIdQuery,
  taskListQuery,
  taskView,
  textPicBody,
  textVideoBody,
  uploadListsAnswer,
  userFreeNumAnswer,
} from "./generation.schema.ts";
import { engineStatusAnswer } from "./generation.engines.schema.ts";
import { STATUS_TEXT, type GenerationService } from "./generation.service.ts";
import type { ProgressHub } from "./progress.ts";

const HEARTBEAT_MS = 15_000;
const ENDED = new Set<string>(ENDED_TASK_STATUSES);

export function generationRoutes(api: ApiRouter, generation: GenerationService, hub: ProgressHub, engineStatus: () => Promise<EngineStatus>) {
  const tags = ["generation"];
  const can = ["create", "GenerationTask"] as ["create", "GenerationTask"];
  const read = ["read", "GenerationTask"] as ["read", "GenerationTask"];

  api.post(
    "/api/Generation/picVideoSubmit",
    {
      summary: "Image to video (`image_id`), audio overlay (+`audio_id`) or video to video (`video_id`); answers the task id",
      tags,
      auth: "user",
      can,
      body: picVideoBody,
      response: submittedTask,
    },
    ({ principal, body }) => generation.picVideo(principal.userId, body, principal.account),
  );
  api.post(
    "/api/Generation/roleVideoSubmit",
    { summary: "Video from a character model's reference photo (`role_id`)", tags, auth: "user", can, body: roleVideoBody, response: submittedTask },
    ({ principal, body }) => generation.roleOrTextVideo(principal.userId, body, true, principal.account),
  );
  api.post(
    "/api/Generation/textVideoSubmit",
    { summary: "Video from a prompt (`prompt`) or a role (`role_id`)", tags, auth: "user", can, body: textVideoBody, response: submittedTask },
    ({ principal, body }) => generation.roleOrTextVideo(principal.userId, body, false, principal.account),
  );
  api.post(
    "/api/Generation/textPicSubmit",
    { summary: "Image from a prompt", tags, auth: "user", can, body: textPicBody, response: submittedTask },
    ({ principal, body }) => generation.images(principal.userId, body, false, principal.account),
  );
  api.post(
    "/api/Generation/generativeModel",
    {
      summary: "Image from a prompt, optionally guided by a photo (`image_id`) or role (`role_id`)",
      tags,
      auth: "user",
      can,
      body: textPicBody,
      response: submittedTask,
    },
    ({ principal, body }) => generation.images(principal.userId, body, false, principal.account),
  );
  api.post(
    "/api/Generation/imageBatchModel",
    { summary: "A batch of 1-4 images from a prompt", tags, auth: "user", can, body: imageBatchBody, response: submittedTask },
    ({ principal, body }) => generation.images(principal.userId, body, true, principal.account),
  );
  api.post(
    "/api/Generation/getDurationPoints",
    { summary: "The credit price of a request before submitting it", tags, auth: "public", body: durationPointsBody, response: getDurationPointsAnswer },
    ({ body, principal }) => generation.quote(body, principal.kind === "user" ? principal.userId : undefined),
  );
  api.post(
    "/api/Generation/followUpPoints",
    {
      summary: "The price of extending (`extend`) or upscaling to 1080p (`upscale`) one of the caller's finished results, and whether it can run now",
      tags,
      auth: "user",
      can,
      body: followUpQuoteBody,
      response: followUpQuoteAnswer,
    },
    ({ principal, body }) => generation.followUpQuote(principal.userId, body),
  );
  api.post(
    "/api/Generation/followUpSubmit",
    {
      summary: "Extend one of the caller's finished clips from its last frame, or make a finished clip or picture 1080p; answers the new task",
      tags,
      auth: "user",
      can,
      body: followUpBody,
      response: submittedTask,
    },
    ({ principal, body }) => generation.followUp(principal.userId, body, principal.account),
  );
  api.get(
    "/api/Generation/uploadLists",
    { summary: "The caller's generated videos and images, newest first", tags, auth: "user", can: read, query: taskListQuery, response: uploadListsAnswer },
    ({ principal, query }) => generation.list(principal.userId, query),
  );
  api.get(
    "/api/Generation/picVideoSubmitDetails",
    {
      summary: "One task: status (SPEC wording), progress, cost and, when done, its URLs",
      tags,
      auth: "user",
      can: read,
      query: taskIdQuery,
      response: taskView,
    },
    ({ principal, query }) => generation.details(principal.userId, query.id),
  );
  api.post(
    "/api/Generation/setPublic",
    {
      summary: "Share one of the caller's finished creations in the home gallery (`public` 1) or stop sharing it (0)",
      tags,
      auth: "user",
      can: ["update", "GenerationTask"],
      body: setPublicBody,
      response: setPublicAnswer,
    },
    ({ principal, body }) => generation.setPublic(principal.userId, body.id, body.public === 1),
  );
  api.post(
    "/api/Generation/deleteTask",
    {
      summary: "Remove one of the caller's finished generated items from their results",
      tags,
      auth: "user",
      can: ["delete", "GenerationTask"],
      body: deleteResultBody,
      response: deleteTaskAnswer,
    },
    async ({ principal, body }) => {
      await generation.remove(principal.userId, body.id);
      return {};
    },
  );
  const viewer = (p: { kind: string; userId?: number }) => (p.kind === "user" ? (p.userId ?? null) : null);
  api.get(
    "/api/Index/gallery",
    {
      summary:
        "Shared creations for the home gallery, newest first (`sort=new`) or popular this week (`popular`), by `mode` and `template_id`, with likes and remixes and whether the caller liked each",
      tags,
      auth: "public",
      query: galleryQuery,
      response: galleryAnswer,
    },
    ({ query, principal }) => generation.gallery(query, viewer(principal)),
  );
  api.get(
    "/api/Index/galleryItem",
    {
      summary: "One shared creation with its prompt and settings (never its source photo or owner beyond the display name) and the item it remixes",
      tags,
      auth: "public",
      query: galleryItemQuery,
      response: galleryItemAnswer,
    },
    ({ query, principal }) => generation.galleryItem(query.id, viewer(principal)),
  );
  api.post(
    "/api/Gallery/like",
    {
      summary: "Like a shared creation, once per account (guests too); answers its count",
      tags,
      auth: "user",
      can: ["create", "GalleryLike"],
      body: likeBody,
      response: likeAnswer,
    },
    ({ principal, body }) => generation.like(principal.userId, body.id),
  );
  api.post(
    "/api/Gallery/unlike",
    {
      summary: "Take back the caller's own like of a shared creation",
      tags,
      auth: "user",
      can: ["delete", "GalleryLike"],
      body: likeBody,
      response: likeAnswer,
    },
    ({ principal, body }) => generation.unlike(principal.userId, body.id),
  );
  api.get("/api/ImageUpload/user_free_num", { summary: "Free generations left", tags, auth: "user", response: userFreeNumAnswer }, ({ principal }) =>
    generation.freeGenerations(principal.userId),
  );
  api.get(
    "/api/Generation/engineStatus",
    { summary: "Which engine renders and whether it is a real AI back end", tags, auth: "public", response: engineStatusAnswer },
    () => engineStatus(),
  );

  api.get(
    "/api/Generation/progress",
    {
      summary:
        "Server-Sent Events: `progress` events for one task (`id`) or for all the caller's tasks; without `id`, also the account's own events, each named by its type (`message`, docs/decisions/311); ends when the task ends, or at once when the login is logged out or the account banned",
      tags,
      auth: "user",
      can: read,
      query: streamQuery,
      response: { kind: "events", schema: progressData, description: "`progress` events" },
    },
    async ({ principal, query, req, res }) => {
      const { userId, sessionId } = principal;
      if (query.id) await generation.own(userId, query.id);
      const send = (data: unknown) => res.write(`event: progress\ndata: ${JSON.stringify(data)}\n\n`);
      let closed = false;
      let unsubscribe = () => {};
      let heartbeat: NodeJS.Timeout | undefined;
      const finish = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        unsubscribe();
        res.end();
      };
      req.on("close", finish);
      // subscribe before answering and taking the snapshot, so nothing falls between them; what arrives before the
      // answer's headers are written waits for them (a write before them would send a 200 without its content type)
      let opened!: () => void;
      let chain = new Promise<void>((resolve) => (opened = resolve));
      unsubscribe = await hub.subscribe(
        (e) => {
          if (closed || e.userId !== userId || (query.id && e.taskId !== query.id)) return;
          chain = chain
            .then(async () => {
              if (closed) return;
              if (ENDED.has(e.status)) {
                send(await generation.details(userId, e.taskId));
                if (query.id) finish();
              } else send({ id: e.taskId, status: STATUS_TEXT[e.status as keyof typeof STATUS_TEXT], state: e.status, progress: e.progress });
            })
            .catch(finish);
        },
        (ended) => {
          // a ban or a logout, from any instance: this stream's login is over (docs/decisions/075)
          if ("sessionId" in ended ? ended.sessionId === sessionId : ended.userId === userId) finish();
        },
        // the account's own events ride the stream of all its tasks (one stream per tab), not a one-task stream
        query.id
          ? undefined
          : (e) => {
              if (closed || e.userId !== userId) return;
              chain = chain.then(() => void (closed || res.write(`event: ${e.type}\ndata: ${JSON.stringify(e.data)}\n\n`)));
            },
      );
      if (closed) return void unsubscribe();
      openEventStream(res);
      res.flushHeaders();
      opened();
      heartbeat = setInterval(() => res.write(": keep-alive\n\n"), HEARTBEAT_MS);
      const snapshot = query.id
        ? [await generation.details(userId, query.id)]
        : (await generation.list(userId, { page: 1, limit: 20 })).list.filter((t) => !ENDED.has(t.state));
      for (const t of snapshot) send(t);
      if (query.id && ENDED.has(snapshot[0].state)) finish();
      return undefined;
    },
  );
}
