import { z } from "zod";
import { TIP_DEFAULTS, TIP_MAX_LIMIT, TIP_MESSAGES, TIP_SETTING, type TipSettings } from "../../contract/tips.ts";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import { storedSetting } from "./site.settings.ts";

const credits = z.number().int().min(1).max(TIP_MAX_LIMIT);

/** The `tips` setting as staff may write it: presets, minimum and maximum in whole credits; nothing else. */
const tipsValue = z
  .strictObject({ presets: z.array(credits).min(1).max(6), min: credits, max: credits })
  .refine((v) => v.min <= v.max && v.presets.every((p) => p >= v.min && p <= v.max));

/** The tip settings a value stands for (presets sorted, duplicates dropped), or a 400 saying what they must be. */
export function checkedTips(value: unknown): TipSettings {
  const parsed = tipsValue.safeParse(value);
  if (!parsed.success) throw HttpError.badRequest(TIP_MESSAGES.settingsInvalid);
  return { ...parsed.data, presets: [...new Set(parsed.data.presets)].sort((a, b) => a - b) };
}

/** The tip settings in force: staff's, or TIP_DEFAULTS. */
export const storedTips = (db: Db): Promise<TipSettings> => storedSetting(db, TIP_SETTING, checkedTips, TIP_DEFAULTS);
