import { z } from "zod";
import { CHAT_MEDIA_DEFAULTS, CHAT_MEDIA_MESSAGES, CHAT_MEDIA_SETTING, type ChatMediaSettings } from "../../contract/chat.ts";
import { ENGINE_KINDS } from "../../contract/engines.ts";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import { storedSetting } from "./site.settings.ts";

const GPU_ENGINES = ENGINE_KINDS.filter((e) => e !== "local");
const price = z.number().int().min(0).max(1_000_000).nullable();
/** A workflow's name per GPU engine (the local engine runs none). */
const workflows = z.partialRecord(z.enum(GPU_ENGINES), z.string().trim().min(1).max(200));

/** The `chatMedia` setting as staff may write it (issue 50 item 5); what is left out keeps its default. */
const chatMediaValue = z.strictObject({
  enabled: z.boolean().default(CHAT_MEDIA_DEFAULTS.enabled),
  off_channels: z.array(z.string().trim().min(1).max(64)).max(500).default(CHAT_MEDIA_DEFAULTS.off_channels),
  price: z.strictObject({ image: price.default(null), video: price.default(null) }).default(CHAT_MEDIA_DEFAULTS.price),
  drafts: z.boolean().default(CHAT_MEDIA_DEFAULTS.drafts),
  workflows: z.strictObject({ image: workflows.default({}), video: workflows.default({}) }).default(CHAT_MEDIA_DEFAULTS.workflows),
});

/** The chat media settings a value stands for, or a 400 saying what they must be. */
export function checkedChatMedia(value: unknown): ChatMediaSettings {
  const parsed = chatMediaValue.safeParse(value);
  if (!parsed.success) throw HttpError.badRequest(CHAT_MEDIA_MESSAGES.settingsInvalid);
  return { ...parsed.data, off_channels: [...new Set(parsed.data.off_channels)] } as ChatMediaSettings;
}

/** The chat media settings in force: staff's, or CHAT_MEDIA_DEFAULTS. */
export const storedChatMedia = (db: Db): Promise<ChatMediaSettings> => storedSetting(db, CHAT_MEDIA_SETTING, checkedChatMedia, CHAT_MEDIA_DEFAULTS);
