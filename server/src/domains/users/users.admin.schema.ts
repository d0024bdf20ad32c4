import { z } from "zod";
import { boolFilter, dateFilter, idsFilter, intFilter, textFilter } from "../../http/list-filters.ts";
import { LOGIN_TYPES, USER_ROLES } from "../../contract/users.ts";

export const userFilter = z.strictObject({
  id: idsFilter,
  /** Search: email or nickname containing it, or the exact uuid / id. */
  q: textFilter,
  loginType: z.enum(LOGIN_TYPES).optional(),
  role: z.enum(USER_ROLES).optional(),
  channelId: textFilter,
  banned: boolFilter,
  paymentPermission: boolFilter,
  createdAt_gte: dateFilter,
  createdAt_lte: dateFilter,
});
export type UserFilter = z.infer<typeof userFilter>;
export const userSortable = ["id", "createdAt", "points", "email", "nickname", "loginType"] as const;

export const ledgerFilter = z.strictObject({
  id: idsFilter,
  userId: intFilter,
  staffId: intFilter,
  reason: textFilter,
});
export type LedgerFilter = z.infer<typeof ledgerFilter>;
export const ledgerSortable = ["id", "createdAt", "delta"] as const;

export const paymentPermissionBody = z.object({
  granted: z.boolean({ error: "granted must be true or false" }),
  reason: z.string({ error: "Please give a reason" }).trim().min(3, { error: "Please give a reason" }).max(500),
});
export type PaymentPermissionBody = z.infer<typeof paymentPermissionBody>;

export const adjustCreditsBody = z.object({
  /** Positive adds credits, negative takes them away; never to below zero. */
  delta: z
    .number({ error: "delta must be a whole number" })
    .int({ error: "delta must be a whole number" })
    .min(-1_000_000)
    .max(1_000_000)
    .refine((d) => d !== 0, { error: "delta must not be 0" }),
  reason: z.string({ error: "Please give a reason" }).trim().min(3, { error: "Please give a reason" }).max(500),
  /** Chosen by the console once per adjustment dialog, so a retried submit never moves credits twice. */
  idempotencyKey: z.string({ error: "idempotencyKey is required" }).trim().min(8).max(100),
});
export type AdjustCreditsBody = z.infer<typeof adjustCreditsBody>;

// What the routes answer (docs/decisions/229).

/** users list  */
export const userRow = z.object({
  id: z.number(),
  createdAt: z.date(),
  title: z.string().nullable(),
  channelId: z.string().nullable(),
  updatedAt: z.date(),
  role: z.enum(USER_ROLES),
  email: z.string().nullable(),
  uuid: z.string(),
  googleSub: z.string().nullable(),
  playerUid: z.string().nullable(),
  /** what the person typed as a nickname; null for most, who never set one */
  nickname: z.string().nullable(),
  /** the name other people see: a creator's page title while the page is up, else the nickname or SPEC's Guest_ form */
  publicName: z.string(),
  loginType: z.enum(LOGIN_TYPES),
  photo: z.string().nullable(),
  language: z.string(),
  supplierId: z.number().nullable(),
  utmCampaign: z.string().nullable(),
  utmAdset: z.string().nullable(),
  utmAd: z.string().nullable(),
  bemobClickId: z.string().nullable(),
  paymentPermission: z.boolean(),
  points: z.number(),
  allPoints: z.number(),
  freeGenerations: z.number(),
  bannedAt: z.date().nullable(),
  mergedIntoId: z.number().nullable(),
});

/**
 * users get: the account without its sign-in subjects and the finer marketing marks, and when a pending deletion's
 * grace period ends (null: none pending; the console offers "Undo account deletion" only then)
 */
export const userRecord = userRow
  .omit({
    title: true,
    googleSub: true,
    playerUid: true,
    supplierId: true,
    utmAdset: true,
    utmAd: true,
    bemobClickId: true,
  })
  .extend({ deletionPendingUntil: z.date().nullable() });

/** ledger list  */
export const ledgerRecord = z.object({
  id: z.number(),
  createdAt: z.date(),
  note: z.string().nullable(),
  staffId: z.number().nullable(),
  reason: z.string(),
  userId: z.number(),
  idempotencyKey: z.string(),
  reference: z.string().nullable(),
  delta: z.number(),
  balanceAfter: z.number(),
});
