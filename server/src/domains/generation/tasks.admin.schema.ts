import { z } from "zod";
import { dateFilter, idsFilter, intFilter, textFilter } from "../../http/list-filters.ts";

export const generationModes = ["image_to_video", "audio_overlay", "video_to_video", "text_to_video", "role_video", "text_to_image", "image_batch"] as const;

export const taskFilter = z.strictObject({
  id: idsFilter,
  status: z.enum(["queued", "running", "succeeded", "failed", "expired"]).optional(),
  mode: z.enum(generationModes).optional(),
  engine: textFilter,
  state: z.enum(["active", "suspended", "removed"]).optional(),
  userId: intFilter,
  templateId: intFilter,
  createdAt_gte: dateFilter,
  createdAt_lte: dateFilter,
});
export type TaskFilter = z.infer<typeof taskFilter>;
export const taskSortable = ["id", "createdAt", "finishedAt", "status", "mode", "engine", "cost"] as const;
