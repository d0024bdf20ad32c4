import type { Db, Tx } from "../../db/client.ts";
import type { ContentState } from "../../contract/moderation.ts";
import type { ModeratedContent } from "../moderation/moderated-content.ts";
import type { MessageMedia } from "./messages.media.ts";

/** A message with the two sides of its thread: the fan and the page's creator. */
async function withSides(c: Tx | Db, id: number) {
  const m = await c.message.findUnique({ where: { id }, include: { thread: true } });
  if (!m) return null;
  const page = await c.creatorPage.findUnique({ where: { id: m.thread.creatorPageId }, select: { userId: true } });
  return page && { m, fanId: m.thread.fanUserId, creatorId: page.userId };
}

/**
 * How moderation finds, hides and previews messages (docs/decisions/310). A message is private to its thread: it is
 * its writer's, and the other side may report it too (a fan reports what a creator sent them). Held or taken down, it
 * is gone from both sides' thread and its file is refused.
 */
export function moderatedMessages(media: Pick<MessageMedia, "attached">) {
  return {
    find: async (c: Tx | Db, id: number) => {
      const s = await withSides(c, id);
      if (!s) return null;
      return { userId: s.m.sender === "fan" ? s.fanId : s.creatorId, state: s.m.state, isPublic: false, parties: [s.fanId, s.creatorId] };
    },
    setState: async (c: Tx, id: number, state: ContentState, from?: ContentState) =>
      (await c.message.updateMany({ where: { id, ...(from ? { state: from } : {}) }, data: { state } })).count > 0,
    /** The attached item's file (a moderator previews it; evidence keeps it). */
    media: async (c: Tx | Db, id: number) => {
      const s = await withSides(c, id);
      if (!s?.m.libraryItemId) return null;
      const files = (await media.attached(s.creatorId, [s.m.libraryItemId])).get(s.m.libraryItemId)?.media;
      return files ? { key: files.key, kind: files.kind, posterKey: files.posterKey } : null;
    },
  } satisfies ModeratedContent;
}
