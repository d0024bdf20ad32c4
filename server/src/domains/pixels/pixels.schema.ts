import { z } from "zod";
import { patchOf } from "../../http/patch.ts";
import { idsFilter, intFilter, textFilter } from "../../http/list-filters.ts";
import { PIXEL_FLAGS, type PixelFlagColumn } from "../../contract/pixels.ts";


/** SPEC.md §3: pixel kinds 1..8 (Facebook, TikTok, Google Ads, Bigo, BeMob, OKSpin, ExoClick, VK Ads) map to the switches in the same order. */
export const KIND_FLAG: Record<number, PixelFlagColumn> = Object.fromEntries(PIXEL_FLAGS.map(([col], i) => [i + 1, col]));

const channelCode = z.string().trim().max(64);

export const pixelStateQuery = z.object({ channel_id: channelCode.optional() });

export const pixelListQuery = z.object({
  type: z.coerce.number({ error: "type must be 1 to 8" }).int().min(1, { error: "type must be 1 to 8" }).max(8, { error: "type must be 1 to 8" }),
  channel_id: channelCode.optional(),
  pixel_event: z.string().trim().max(64).optional(),
});

export const pixelEventBody = z
  .object({
    event: z.string({ error: "event is required" }).trim().min(1, { error: "event is required" }).max(64),
    channel_id: channelCode.optional(),
  })
  .catchall(z.unknown());
export type PixelEventBody = z.infer<typeof pixelEventBody>;

const flag = z.union([z.literal(0), z.literal(1)], { error: "a pixel switch is 1 (on) or 0 (off)" });

export const channelBody = z.strictObject({
  code: z.string({ error: "Please enter a code" }).trim().min(1, { error: "Please enter a code" }).max(64).regex(/^[\w.-]+$/, { error: "code may hold letters, digits, _ . -" }),
  name: z.string({ error: "Please enter a name" }).trim().min(1, { error: "Please enter a name" }).max(100),
  facebook: flag.default(1),
  tiktok: flag.default(1),
  google: flag.default(1),
  bigo: flag.default(1),
  bemob: flag.default(1),
  kspin: flag.default(1),
  exoclick: flag.default(1),
  vk: flag.default(1),
  requiresPaymentPermission: z.boolean().default(false),
});
export type ChannelBody = z.infer<typeof channelBody>;
export const channelUpdateBody = patchOf(channelBody);

export const channelFilter = z.strictObject({ id: idsFilter, q: textFilter, code: textFilter });
export type ChannelFilter = z.infer<typeof channelFilter>;
export const channelSortable = ["id", "code", "name", "createdAt"] as const;

export const pixelIdBody = z.strictObject({
  channelId: z.coerce.number({ error: "channelId is required" }).int().positive(),
  kind: z.coerce.number({ error: "kind must be 1 to 8" }).int().min(1, { error: "kind must be 1 to 8" }).max(8, { error: "kind must be 1 to 8" }),
  event: z.string().trim().max(64).nullish().transform((v) => v || null),
  value: z.string({ error: "Please enter the pixel id or domain" }).trim().min(1, { error: "Please enter the pixel id or domain" }).max(500),
});
export type PixelIdBody = z.infer<typeof pixelIdBody>;
export const pixelIdUpdateBody = patchOf(pixelIdBody);

export const pixelIdFilter = z.strictObject({ id: idsFilter, channelId: intFilter, kind: intFilter, event: textFilter });
export type PixelIdFilter = z.infer<typeof pixelIdFilter>;
export const pixelIdSortable = ["id", "channelId", "kind", "event", "createdAt"] as const;
