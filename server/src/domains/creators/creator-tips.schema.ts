import { z } from "zod";
import { TIP_MAX_LIMIT, TIP_MESSAGE_MAX, TIP_MESSAGES as M, TIP_STATUSES } from "../../contract/tips.ts";
import { idsFilter, intFilter } from "../../http/list-filters.ts";
import { membershipBody } from "./creators.schema.ts";
import { SIDES } from "../../contract/sides.ts";

const messageTooLong = M.messageTooLong.replace("{{max}}", String(TIP_MESSAGE_MAX));

/** A fan's tip: the page (and, when sent from one, the library item), whole credits, an optional message, the tap's key. */
export const tipBody = membershipBody.extend({
  // staff's minimum and maximum are checked by the service (they change without a deploy); this is the outer bound
  // a JSON number: `"10"`, `[10]` or `"1e3"` is no amount (issue 47)
  amount: z.number().int().positive().max(TIP_MAX_LIMIT),
  message: z
    .string()
    .trim()
    .max(TIP_MESSAGE_MAX, { error: messageTooLong })
    .optional()
    .transform((v) => v || undefined),
  library_item_id: z.number().int().positive().optional(),
  /** one per tap: a double click or a retried request is one tip, charged once */
  idempotency_key: z.string().min(8).max(100),
});
export const tipsQuery = z.object({ as: z.enum(SIDES).default("fan") });

// What the routes answer (docs/decisions/229).

const tipFields = {
  id: z.number(),
  amount: z.number(),
  message: z.string().nullable(),
  status: z.enum(TIP_STATUSES),
  library_item_id: z.number().nullable(),
  created_at: z.string(),
  home_link: z.string(),
  creator: z.string(),
};
/** post /api/Subscribe/tip */
export const tipAnswer = z.object(tipFields);
/** get /api/Subscribe/tips */
export const tipsAnswer = z.object({ list: z.array(z.object(tipFields)) });
/** get /api/Subscribe/tipSettings */
export const tipSettingsAnswer = z.object({ presets: z.array(z.number()), min: z.number(), max: z.number() });

export const tipFilter = z.strictObject({ id: idsFilter, status: z.enum(TIP_STATUSES).optional(), creatorPageId: intFilter, fanUserId: intFilter });
export type TipFilter = z.infer<typeof tipFilter>;
export const tipSortable = ["id", "createdAt", "amount", "status"] as const;

/** A tip in the console. */
export const tipRecord = z.object({
  id: z.number(),
  creatorPageId: z.number(),
  creatorUserId: z.number(),
  homeLink: z.string(),
  fanUserId: z.number(),
  libraryItemId: z.number().nullable(),
  amount: z.number(),
  message: z.string().nullable(),
  idempotencyKey: z.string(),
  status: z.enum(TIP_STATUSES),
  createdAt: z.date(),
  reversedAt: z.date().nullable(),
  reversedById: z.number().nullable(),
  reversalNote: z.string().nullable(),
  reversalShortfall: z.number(),
});
