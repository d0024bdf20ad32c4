import type { ContentState } from "../../contract/moderation.ts";
import type { Db, Tx } from "../../db/client.ts";
import { isVideo } from "./generation.task.ts";

/** What moderation may see and change of a task: the owner, and the visibility state (reports, takedowns). */
export const moderatedTasks = {
  /** A task is public while shared in the gallery (and finished); a report's suspension keeps it so, a takedown does not. */
  find: async (c: Tx | Db, id: number) => {
    const t = await c.generationTask.findUnique({ where: { id }, select: { userId: true, state: true, isPublic: true, status: true } });
    return t && { userId: t.userId, state: t.state, isPublic: t.isPublic && t.status === "succeeded" && t.state !== "removed" };
  },
  setState: async (c: Tx, id: number, state: ContentState, from?: ContentState) =>
    (await c.generationTask.updateMany({ where: { id, ...(from ? { state: from } : {}) }, data: { state } })).count > 0,
  /** The result a moderator previews, with a video's poster (expired results have no file left). */
  media: async (c: Tx | Db, id: number) => {
    const t = await c.generationTask.findUnique({ where: { id }, select: { mode: true, outputKey: true, posterKey: true, status: true } });
    if (!t?.outputKey || t.status !== "succeeded") return null;
    return isVideo(t.mode) ? { key: t.outputKey, kind: "video" as const, posterKey: t.posterKey } : { key: t.outputKey, kind: "image" as const };
  },
  /** A result's file or poster named in a pasted media link. */
  byMediaKey: async (c: Tx | Db, key: string) =>
    (await c.generationTask.findFirst({ where: { OR: [{ outputKey: key }, { posterKey: key }] }, select: { id: true } }))?.id ?? null,
};
