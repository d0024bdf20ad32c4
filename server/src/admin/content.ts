import type { ApiRouter } from "../http/api.ts";
import { AdminResource, reasonBody } from "./resource.ts";
import type { ModerationService } from "../domains/moderation/moderation.service.ts";
import { characterSortable, contentFilter, creatorPageSortable, decisionBody } from "../domains/moderation/moderation.schema.ts";

/** Users' characters and creator pages, read-only for moderators, with a takedown that needs no report. */
export function contentResources(api: ApiRouter, moderation: ModerationService) {
  const characters = new AdminResource(api, "characters", "Character");
  characters.list({ filter: contentFilter, sortable: characterSortable }, (p) => moderation.listCharacters(p));
  characters.get((id) => moderation.getCharacter(id));
  characters.action("takedown", { summary: "Take the character down", can: ["takedown", "Character"], body: decisionBody }, (id, body, staff) =>
    moderation.takeDownContent(staff.staffId, "character", id, body),
  );

  const pages = new AdminResource(api, "creator-pages", "CreatorPage");
  pages.list({ filter: contentFilter, sortable: creatorPageSortable }, (p) => moderation.listCreatorPages(p));
  pages.get((id) => moderation.getCreatorPage(id));
  pages.action("takedown", { summary: "Take the creator page down", can: ["takedown", "CreatorPage"], body: decisionBody }, (id, body, staff) =>
    moderation.takeDownContent(staff.staffId, "creator_page", id, body),
  );
  pages.action("restore", { summary: "Show a taken-down creator page again (audited)", can: ["takedown", "CreatorPage"], body: reasonBody }, (id, body, staff) =>
    moderation.restoreContent(staff.staffId, "creator_page", id, body.reason),
  );
}
