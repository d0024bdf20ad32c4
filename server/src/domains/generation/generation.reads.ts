import type { ContentState } from "../../contract/moderation.ts";
import { IMAGE_MODES, VIDEO_MODES, type GenerationMode } from "../../contract/generation.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import { queuedPerEngine, recentRenderTimes } from "./generation.queries.ts";
import { isVideo, unexpired, type GenerationDeps } from "./generation.task.ts";
import { withTemplateNames } from "./generation.template-names.ts";
import type { createTaskViews } from "./generation.views.ts";

/** Reading tasks: the owner's, creator pages' media, and the console's figures (the home gallery: generation.gallery.ts). */
export function createTaskReads(deps: GenerationDeps, { view }: ReturnType<typeof createTaskViews>) {
  const { db, credits } = deps;

  async function own(userId: number, id: number) {
    const t = await db.generationTask.findFirst({ where: { id, userId, state: "active" } });
    if (!t) throw HttpError.notFound();
    return t;
  }

  return {
    own,

    /** The picture of one of the caller's finished, unexpired image tasks (404 when not theirs, 400 while not ready). */
    async imageOf(userId: number, id: number): Promise<string> {
      const t = await own(userId, id);
      if (!(IMAGE_MODES as readonly GenerationMode[]).includes(t.mode)) throw HttpError.notFound();
      const expired = t.expiresAt !== null && t.expiresAt.getTime() <= Date.now();
      if (t.status !== "succeeded" || expired || !t.outputKey) throw HttpError.badRequest(MSG.imageNotReady);
      return t.outputKey;
    },

    async details(userId: number, id: number) {
      return view(await own(userId, id));
    },

    /** The views of the caller's active tasks among `ids`, by id, read in one query (a page of chat messages' media). */
    async detailsOf(userId: number, ids: number[]) {
      if (!ids.length) return new Map<number, Awaited<ReturnType<typeof view>>>();
      const rows = await db.generationTask.findMany({ where: { id: { in: ids }, userId, state: "active" } });
      return new Map(await Promise.all(rows.map(async (t) => [t.id, await view(t)] as const)));
    },

    async list(userId: number, q: { page: number; limit: number; type?: "video" | "image"; finished?: number }) {
      const where = {
        userId,
        state: "active" as const,
        ...(q.type ? { mode: q.type === "video" ? { in: [...VIDEO_MODES] } : { notIn: [...VIDEO_MODES] } } : {}),
        ...(q.finished ? { status: "succeeded" as const, ...unexpired() } : {}),
      };
      const [total, rows] = await Promise.all([
        db.generationTask.count({ where }),
        db.generationTask.findMany({ where, orderBy: { id: "desc" }, skip: (q.page - 1) * q.limit, take: q.limit }),
      ]);
      return { list: await Promise.all(rows.map(view)), total, page: q.page, limit: q.limit };
    },

    /**
     * The files of the user's finished, active, unexpired creations among `ids`, by task id (a creator page's library):
     * a creation suspended by a report, removed or expired drops out at once.
     */
    async finishedMedia(userId: number, ids: number[]): Promise<Map<number, { kind: "image" | "video"; key: string; posterKey: string | null }>> {
      if (!ids.length) return new Map();
      const rows = await db.generationTask.findMany({
        where: { id: { in: ids }, userId, state: "active", status: "succeeded", outputKey: { not: null }, ...unexpired() },
        select: { id: true, mode: true, outputKey: true, posterKey: true },
      });
      return new Map(rows.map((r) => [r.id, { kind: isVideo(r.mode) ? ("video" as const) : ("image" as const), key: r.outputKey!, posterKey: r.posterKey }]));
    },

    /**
     * What the console shows of creations published on creator pages (decision 215): each one's moderation state, its
     * status, and the picture to show (an image's file, a video's poster) while its files exist.
     */
    async previewsOf(ids: number[]): Promise<Map<number, { state: ContentState; status: string; thumbKey: string | null }>> {
      if (!ids.length) return new Map();
      const rows = await db.generationTask.findMany({
        where: { id: { in: ids } },
        select: { id: true, mode: true, state: true, status: true, outputKey: true, posterKey: true },
      });
      return new Map(
        rows.map((r) => [
          r.id,
          { state: r.state, status: r.status, thumbKey: r.status === "succeeded" ? (isVideo(r.mode) ? r.posterKey : r.outputKey) : null },
        ]),
      );
    },

    /**
     * What the console's engine status shows beside each engine's own report, from the tasks table (so it is the
     * same on every instance): tasks waiting and running per engine, and the average render time per template over
     * the last 7 days.
     */
    async engineFigures() {
      const [queue, renders] = await Promise.all([queuedPerEngine.rows(db, {}), recentRenderTimes.rows(db, {})]);
      return {
        queue,
        renders: await withTemplateNames(
          deps.templates,
          renders.map((r) => ({ templateId: r.template_id, engine: r.engine, renders: r.renders, avgSeconds: Math.round(r.avg_seconds * 10) / 10 })),
        ),
      };
    },

    async freeGenerations(userId: number) {
      const left = await credits.freeGenerations(userId);
      if (left === null) throw HttpError.notFound();
      return { free_num: left, num: left };
    },
  };
}
