import type { Db, Tx } from "../../db/client.ts";
import { matching, pageOf, type ListParams } from "../../db/paging.ts";
import { HttpError } from "../../http/errors.ts";
import type { AuditService } from "../audit/audit.service.ts";
import { RESOURCE, type ContentOwners } from "./moderated-content.ts";
import type { Decided } from "./moderation.decisions.ts";
import type { ContentFilter } from "./moderation.schema.ts";
import type { Takedowns } from "./moderation.takedowns.ts";

type Browsed = "character" | "creator_page";

const contentState = {
  character: (c: Tx, id: number) => c.character.findUnique({ where: { id }, select: { id: true, userId: true, state: true } }),
  creator_page: (c: Tx, id: number) => c.creatorPage.findUnique({ where: { id }, select: { id: true, userId: true, state: true } }),
};

/** The console's filter on characters or creator pages: owner, state, and a search in the name (`title` for pages). */
function contentWhere(f: ContentFilter, searched: "name" | "title") {
  return { ...matching(f, ["userId", "state"]), ...(f.q ? { [searched]: { contains: f.q, mode: "insensitive" } } : {}) };
}

/** Characters and creator pages as moderators browse them, and the takedowns and restores they start from the content itself. */
export function createContentModeration({
  db,
  audit,
  content,
  takedowns,
}: {
  db: Db;
  audit: AuditService;
  content: ContentOwners;
  takedowns: Pick<Takedowns, "removeContent" | "decideTakedown">;
}) {
  return {
    listCharacters: (params: ListParams<ContentFilter>) => pageOf(db.character, params, contentWhere(params.filter, "name")),
    getCharacter: (id: number) => db.character.findUnique({ where: { id } }),
    listCreatorPages: (params: ListParams<ContentFilter>) => pageOf(db.creatorPage, params, contentWhere(params.filter, "title")),
    getCreatorPage: (id: number) => db.creatorPage.findUnique({ where: { id } }),

    /** A takedown a moderator starts from the content itself rather than from a report; audited with its reason. */
    takeDownContent: (staffId: number, targetType: Browsed, targetId: number, d: Decided | string) =>
      db.$transaction(async (tx) => {
        const decided = typeof d === "string" ? { reason: d } : d;
        const before = await contentState[targetType](tx, targetId);
        if (!before) throw HttpError.notFound();
        if (before.state === "removed") throw HttpError.conflict("This content is already taken down");
        await takedowns.removeContent(tx, staffId, targetType, targetId);
        const after = await contentState[targetType](tx, targetId);
        await audit.record(tx, { staffId, action: "takedown", resource: RESOURCE[targetType], resourceId: targetId, before, after, reason: decided.reason });
        await takedowns.decideTakedown(tx, staffId, targetType, targetId, before.userId, decided);
        return after;
      }),

    /**
     * Shows taken-down content again, from the content itself (a mistaken takedown; an appeal reverses through its own
     * path). Conditional on the content still being removed, so two clicks restore it once; audited with its reason.
     */
    restoreContent: (staffId: number, targetType: Browsed, targetId: number, reason: string) =>
      db.$transaction(async (tx) => {
        const before = await contentState[targetType](tx, targetId);
        if (!before) throw HttpError.notFound();
        if (!(await content[targetType].setState(tx, targetId, "active", "removed"))) throw HttpError.conflict("This content is not taken down");
        const after = await contentState[targetType](tx, targetId);
        await audit.record(tx, { staffId, action: "restore", resource: RESOURCE[targetType], resourceId: targetId, before, after, reason });
        return after;
      }),
  };
}
