import type { ApiRouter } from "../http/api.ts";
import { AdminResource, reasonBody } from "./resource.ts";
import { reviewBody } from "../domains/training/training.schema.ts";
import { characterModelRecord, characterModelRow, modelFilter, modelSortable } from "../domains/training/training.admin.schema.ts";
import type { TrainingAdminService } from "../domains/training/training.admin.service.ts";
import type { TrainingService } from "../domains/training/training.service.ts";

/** Trained character models for moderators: the review queue (status review), the consent record, takedown. */
export function characterModelsResource(api: ApiRouter, admin: TrainingAdminService, training: TrainingService) {
  const r = new AdminResource(api, "character-models", "TrainingConsent");
  r.list({ filter: modelFilter, sortable: modelSortable, row: characterModelRow }, (p) => admin.list(p));
  r.get(characterModelRecord, (id) => admin.get(id));
  r.action(
    "review",
    {
      summary: "Approve a held training set (it goes to the trainer) or reject it with a reason (refunded)",
      can: ["review", "TrainingConsent"],
      body: reviewBody,
      response: characterModelRecord,
    },
    async (id, body, staff) => {
      await training.review(staff.staffId, id, body.decision, body.reason);
      return admin.get(id);
    },
  );
  r.action(
    "takedown",
    {
      summary: "Take the model down: unusable at once, its files deleted",
      can: ["takedown", "CharacterModel"],
      body: reasonBody,
      response: characterModelRecord,
    },
    async (id, body, staff) => {
      await training.takedown(staff.staffId, id, body.reason);
      return admin.get(id);
    },
  );
}
