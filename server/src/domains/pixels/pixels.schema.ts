import { z } from "zod";
import { patchOf } from "../../http/patch.ts";
import { idsFilter, intFilter, textFilter } from "../../http/list-filters.ts";
import { PIXEL_FLAGS, SERVER_CONVERSION_SECRET_FIELDS, SERVER_CONVERSION_VENDORS, type PixelFlagColumn } from "../../contract/pixels.ts";

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

const secret = (name: string) =>
  z
    .string({ error: `Please enter the ${name}` })
    .trim()
    .min(1, { error: `Please enter the ${name}` })
    .max(1000);
const digits = (name: string) =>
  z
    .string({ error: `Please enter the ${name}` })
    .trim()
    .regex(/^\d{1,20}$/, { error: `The ${name} is digits only` });

/** A vendor whose every field was left empty counts as not set (the console sends empty inputs as "" or null). */
const unsetWhenEmpty = (v: unknown) =>
  v && typeof v === "object" && Object.values(v).every((x) => x === null || x === undefined || (typeof x === "string" && x.trim() === "")) ? null : v;
const optionalText = z
  .string()
  .trim()
  .max(100)
  .nullish()
  .transform((v) => v || undefined);

/** What the console keeps in the channel row per vendor: ids, never tokens (those are in the secret store, decision 191). */
const metaIds = z.strictObject({ pixelId: digits("Meta pixel id"), testEventCode: optionalText });
const tiktokIds = z.strictObject({ pixelCode: secret("TikTok pixel code"), testEventCode: optionalText });
const googleAdsIds = z.strictObject({
  customerId: digits("Google Ads customer id"),
  conversionActionId: digits("conversion action id"),
  clientId: secret("OAuth client id"),
  loginCustomerId: z
    .string()
    .trim()
    .regex(/^\d{0,20}$/)
    .nullish()
    .transform((v) => v || undefined),
});

/**
 * The console's part of server-side purchase conversions per channel (docs/decisions/121); keys are
 * SERVER_CONVERSION_VENDORS (server/src/contract/pixels.ts). A token sent here is refused as an unknown field.
 */
export const serverConversionIds = z.strictObject({
  meta: z.preprocess(unsetWhenEmpty, metaIds.nullish()),
  tiktok: z.preprocess(unsetWhenEmpty, tiktokIds.nullish()),
  google_ads: z.preprocess(unsetWhenEmpty, googleAdsIds.nullish()),
});

/**
 * What a vendor call needs: the ids with the tokens opened from the secret store
 * (SERVER_CONVERSION_SECRET_FIELDS). A vendor missing any of it is off.
 */
export const serverConversionSettings = z.object({
  meta: metaIds.extend({ accessToken: secret("Meta access token") }).optional(),
  tiktok: tiktokIds.extend({ accessToken: secret("TikTok access token") }).optional(),
  google_ads: googleAdsIds
    .extend({ developerToken: secret("developer token"), clientSecret: secret("OAuth client secret"), refreshToken: secret("OAuth refresh token") })
    .optional(),
});
export type ServerConversionSettings = z.infer<typeof serverConversionSettings>;

/** What a browser reports at checkout so the server's conversion can carry the same click ids (docs/decisions/121). */
export const CHECKOUT_EVENT = "payment_add";

const clickValue = z.string().trim().max(500).nullish();
export const checkoutContext = z.object({
  fbclid: clickValue,
  fbp: clickValue,
  ttclid: clickValue,
  gclid: clickValue,
  device_id: clickValue,
  page_url: z.string().trim().max(2000).nullish(),
});

/** A switch; a new channel starts with every pixel off until staff give it ids and switch it on. */
const flag = z.union([z.literal(0), z.literal(1)], { error: "a pixel switch is 1 (on) or 0 (off)" });

export const channelBody = z.strictObject({
  code: z
    .string({ error: "Please enter a code" })
    .trim()
    .min(1, { error: "Please enter a code" })
    .max(64)
    .regex(/^[\w.-]+$/, { error: "code may hold letters, digits, _ . -" }),
  name: z.string({ error: "Please enter a name" }).trim().min(1, { error: "Please enter a name" }).max(100),
  facebook: flag.default(0),
  tiktok: flag.default(0),
  google: flag.default(0),
  bigo: flag.default(0),
  bemob: flag.default(0),
  kspin: flag.default(0),
  exoclick: flag.default(0),
  vk: flag.default(0),
  requiresPaymentPermission: z.boolean().default(false),
  serverConversions: serverConversionIds.nullish(),
});
export type ChannelBody = z.infer<typeof channelBody>;
export const channelUpdateBody = patchOf(channelBody);

export const channelFilter = z.strictObject({ id: idsFilter, q: textFilter, code: textFilter });
export type ChannelFilter = z.infer<typeof channelFilter>;
export const channelSortable = ["id", "code", "name", "createdAt"] as const;

export const pixelIdBody = z.strictObject({
  channelId: z.number({ error: "channelId is required" }).int().positive(),
  kind: z.number({ error: "kind must be 1 to 8" }).int().min(1, { error: "kind must be 1 to 8" }).max(8, { error: "kind must be 1 to 8" }),
  event: z
    .string()
    .trim()
    .max(64)
    .nullish()
    .transform((v) => v || null),
  value: z.string({ error: "Please enter the pixel id or domain" }).trim().min(1, { error: "Please enter the pixel id or domain" }).max(500),
});
export type PixelIdBody = z.infer<typeof pixelIdBody>;
export const pixelIdUpdateBody = patchOf(pixelIdBody);

export const pixelIdFilter = z.strictObject({ id: idsFilter, channelId: intFilter, kind: intFilter, event: textFilter });
export type PixelIdFilter = z.infer<typeof pixelIdFilter>;
export const pixelIdSortable = ["id", "channelId", "kind", "event", "createdAt"] as const;

/** An admin sets (or with null / "" clears) one conversion API token of a channel; it is never sent back. */
export const channelSecretBody = z
  .strictObject({
    vendor: z.enum(SERVER_CONVERSION_VENDORS, { error: `vendor must be one of ${SERVER_CONVERSION_VENDORS.join(", ")}` }),
    field: z.string({ error: "field is required" }).max(64),
    value: z
      .string()
      .trim()
      .max(1000)
      .nullish()
      .transform((v) => v || null),
  })
  .refine((b) => (SERVER_CONVERSION_SECRET_FIELDS[b.vendor] as readonly string[]).includes(b.field), {
    error: "This vendor has no such token",
    path: ["field"],
  });
export type ChannelSecretBody = z.infer<typeof channelSecretBody>;

// What the routes answer (docs/decisions/229).

/** channels list  */
export const channelRecord = z.object({
  id: z.number(),
  createdAt: z.date(),
  code: z.string(),
  name: z.string(),
  tiktok: z.number(),
  facebook: z.number(),
  google: z.number(),
  bigo: z.number(),
  bemob: z.number(),
  kspin: z.number(),
  exoclick: z.number(),
  vk: z.number(),
  requiresPaymentPermission: z.boolean(),
  serverConversions: z.unknown(),
  updatedAt: z.date(),
});

/** channels view secrets */
export const channelSecretsAnswer = z.object({
  configured: z.boolean(),
  secrets: z.array(
    z.object({
      vendor: z.enum(SERVER_CONVERSION_VENDORS),
      field: z.string(),
      set: z.boolean(),
      last4: z.string().nullable(),
      updatedAt: z.date().nullable(),
    }),
  ),
});

/** pixel-ids list  */
export const pixelIdRecord = z.object({
  value: z.string(),
  id: z.number(),
  createdAt: z.date(),
  event: z.string().nullable(),
  channelId: z.number(),
  kind: z.number(),
});

/** get /api/Pixelcollect/getpixeLState */
export const getpixeLStateAnswer = z.record(z.string(), z.union([z.literal(0), z.literal(1)]));

/** get /api/pixelcollect/pixelList */
export const pixelListAnswer = z.array(z.string());

/** post /api/pixelcollect/add */
export const addAnswer = z.object({
  id: z.number(),
});

/** get /api/pixelcollect/config */
export const configAnswer = z.object({
  script_base_url: z.string().nullable(),
});
