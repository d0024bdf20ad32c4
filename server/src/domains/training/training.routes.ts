import type { RequestHandler } from "express";
import type { ApiRouter } from "../../http/api.ts";
import { HttpError } from "../../http/errors.ts";
import {
  checkPhotoAnswer,
  checkPhotoBody,
  getLoraCharacterListAnswer,
  homeLinkFreeAnswer,
  homeLinkQuery,
  loraListQuery,
  modelIdBody,
  modelIdQuery,
  revokeAnswer,
  selfieAnswer,
  selfieBody,
  statusAnswer,
  submitAnswer,
  trainerAnswer,
  trainingSubmitBody,
  webhookParams,
} from "./training.schema.ts";
import type { TrainingService } from "./training.service.ts";
import { TrainerError, WebhookRejected } from "./trainers/trainer.ts";

export function trainingRoutes(api: ApiRouter, training: TrainingService, perUserHourly: RequestHandler) {
  const tags = ["training"];
  const create = ["create", "CharacterModel"] as ["create", "CharacterModel"];

  api.get(
    "/api/Training/status",
    { summary: "Whether training is available on this server, its price and expected time", tags, auth: "public", response: statusAnswer },
    () => training.availability(),
  );
  api.get(
    "/api/Training/homeLinkFree",
    { summary: "Whether a home link is still free (case-insensitive)", tags, auth: "user", query: homeLinkQuery, response: homeLinkFreeAnswer },
    async ({ query }) => ({
      free: await training.homeLinkFree(query.home_link.trim()),
    }),
  );
  api.post(
    "/api/Training/selfie",
    {
      summary: "A live selfie: two camera frames with different head turns; answers the selfie id the photos are checked against",
      tags,
      auth: "user",
      can: create,
      body: selfieBody,
      before: [perUserHourly],
      response: selfieAnswer,
    },
    ({ principal, body }) =>
      training.takeSelfie(
        principal.userId,
        body.frames.map((f) => Buffer.from(f.slice(f.indexOf(",") + 1), "base64")),
      ),
  );
  api.post(
    "/api/Training/checkPhoto",
    {
      summary: "One uploaded photo against the selfie: exactly one face, the selfie's",
      tags,
      auth: "user",
      can: create,
      body: checkPhotoBody,
      before: [perUserHourly],
      response: checkPhotoAnswer,
    },
    ({ principal, body }) => training.checkPhoto(principal.userId, body.selfie_id, body.upload_id),
  );
  api.post(
    "/api/Training/submit",
    {
      summary: "Submit a training set (charged on submit only: TRAINING_PRICE credits)",
      tags,
      auth: "user",
      can: create,
      body: trainingSubmitBody,
      before: [perUserHourly],
      response: submitAnswer,
    },
    ({ principal, body }) => training.submit(principal.userId, body),
  );
  api.get(
    "/api/Generation/getLoraCharacterList",
    {
      summary: "The caller's character models (cover, name, status, progress), newest first",
      tags,
      auth: "user",
      can: ["read", "CharacterModel"],
      query: loraListQuery,
      response: getLoraCharacterListAnswer,
    },
    ({ principal, query }) => training.list(principal.userId, query),
  );
  api.get(
    "/api/Training/details",
    { summary: "One of the caller's models", tags, auth: "user", can: ["read", "CharacterModel"], query: modelIdQuery, response: submitAnswer },
    ({ principal, query }) => training.details(principal.userId, query.id),
  );
  api.post(
    "/api/Training/cancel",
    {
      summary: "Stop a training: cancelled at the trainer, credits refunded once",
      tags,
      auth: "user",
      can: ["update", "CharacterModel"],
      body: modelIdBody,
      response: submitAnswer,
    },
    ({ principal, body }) => training.cancel(principal.userId, body.id),
  );
  api.post(
    "/api/Training/revoke",
    {
      summary: "Withdraw likeness consent: the model becomes unusable and its files are deleted",
      tags,
      auth: "user",
      can: ["delete", "CharacterModel"],
      body: modelIdBody,
      response: revokeAnswer,
    },
    ({ principal, body }) => training.revoke(principal.userId, body.id),
  );
  api.post(
    "/api/Training/webhook/:trainer",
    { summary: "Trainer webhooks (signature verified over the raw body)", tags, auth: "public", params: webhookParams, response: trainerAnswer },
    async ({ params, req }) => {
      try {
        await training.webhook(params.trainer, req.rawBody ?? Buffer.alloc(0), (n) => req.get(n) ?? undefined);
      } catch (err) {
        if (err instanceof WebhookRejected) throw new HttpError(400, "Webhook signature does not verify");
        // the trainer's file host failed us: let the trainer retry the delivery; the poll is there too
        if (err instanceof TrainerError) throw new HttpError(503, "Try again later");
        throw err;
      }
      return { received: true };
    },
  );
}
