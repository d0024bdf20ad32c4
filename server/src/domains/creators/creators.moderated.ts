import type { Db, Tx } from "../../db/client.ts";
import type { ContentState } from "../../contract/moderation.ts";
import type { ModeratedContent } from "../moderation/moderated-content.ts";

/** How moderation finds and hides pages (reports, takedowns, restores). */
export const moderatedPages = {
  find: async (c: Tx | Db, id: number) => {
    const p = await c.creatorPage.findUnique({ where: { id }, select: { userId: true, state: true } });
    return p && { ...p, isPublic: p.state !== "removed" };
  },
  setState: async (c: Tx, id: number, state: ContentState, from?: ContentState) =>
    (await c.creatorPage.updateMany({ where: { id, ...(from ? { state: from } : {}) }, data: { state } })).count > 0,
} satisfies ModeratedContent;

/**
 * Creations as moderation sees them (generation's `moderated`), where a creation published on a creator page counts as
 * public: it is there for its fans to see, and to report, even when not in the gallery.
 */
export function withPublishedCreations(tasks: ModeratedContent, isPublished: (taskId: number, c: Tx | Db) => Promise<boolean>): ModeratedContent {
  return {
    ...tasks,
    find: async (c: Tx | Db, id: number) => {
      const t = await tasks.find(c, id);
      return t && { ...t, isPublic: t.isPublic || (t.state !== "removed" && (await isPublished(id, c))) };
    },
  };
}

/**
 * Training's revoke (consent withdrawn, model deleted), followed by the page's detaching of that model: the page stays
 * up without it. Both are idempotent, so a retried revoke finishes what an interrupted one left.
 */
export function withPageDetached<R>(revoke: (userId: number, modelId: number) => Promise<R>, detach: (modelId: number) => Promise<void>) {
  return async (userId: number, modelId: number): Promise<R> => {
    const revoked = await revoke(userId, modelId);
    await detach(modelId);
    return revoked;
  };
}
