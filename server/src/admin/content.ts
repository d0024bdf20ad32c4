import type { ApiRouter } from "../http/api.ts";
import { AdminResource, reasonBody } from "./resource.ts";
import type { ModerationService } from "../domains/moderation/moderation.service.ts";
import {
  characterRecord,
  characterSortable,
  characterTakedownAnswer,
  contentFilter,
  creatorPageRecord,
  creatorPageSortable,
  decisionBody,
} from "../domains/moderation/moderation.schema.ts";

/** Users' characters and creator pages, read-only for moderators, with a takedown that needs no report. */
export function contentResources(api: ApiRouter, moderation: ModerationService) {
  const characters = new AdminResource(api, "characters", "Character");
  characters.list({ filter: contentFilter, sortable: characterSortable, row: characterRecord }, (p) => moderation.listCharacters(p));
  characters.get(characterRecord, (id) => moderation.getCharacter(id));
  characters.action(
    "takedown",
    { summary: "Take the character down", can: ["takedown", "Character"], body: decisionBody, response: characterTakedownAnswer },
    (id, body, staff) => moderation.takeDownContent(staff.staffId, "character", id, body),
  );

  const pages = new AdminResource(api, "creator-pages", "CreatorPage");
  pages.list({ filter: contentFilter, sortable: creatorPageSortable, row: creatorPageRecord }, (p) => moderation.listCreatorPages(p));
  pages.get(creatorPageRecord, (id) => moderation.getCreatorPage(id));
  pages.action(
    "takedown",
    { summary: "Take the creator page down", can: ["takedown", "CreatorPage"], body: decisionBody, response: characterTakedownAnswer },
    (id, body, staff) => moderation.takeDownContent(staff.staffId, "creator_page", id, body),
  );
  pages.action(
    "restore",
    { summary: "Show a taken-down creator page again (audited)", can: ["takedown", "CreatorPage"], body: reasonBody, response: characterTakedownAnswer },
    (id, body, staff) => moderation.restoreContent(staff.staffId, "creator_page", id, body.reason),
  );
}
