import { z } from "zod";
import { LANGUAGES } from "../../contract/locales.ts";
import { LEDGER_LABELS } from "../../contract/credits.ts";
import { REWARD_MESSAGES } from "../../contract/rewards.ts";
import { userOrdersQuery } from "../orders/orders.schema.ts";
import { pageOf } from "../uploads/uploads.schema.ts";
import { SIGN_IN_METHODS } from "../../contract/users.ts";

const nickname = z
  .string({ error: "Please enter a nickname" })
  .trim()
  .min(1, { error: "Please enter a nickname" })
  .max(32, { error: "Nickname can be at most 32 characters" });

/** An IANA time zone the server's Intl knows (the browser's `Intl.DateTimeFormat().resolvedOptions().timeZone`). */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export const timeZone = z
  .string({ error: REWARD_MESSAGES.timeZone })
  .trim()
  .min(1, { error: REWARD_MESSAGES.timeZone })
  .max(64, { error: REWARD_MESSAGES.timeZone })
  .refine(isTimeZone, { error: REWARD_MESSAGES.timeZone });

export const uploadUserInfoBody = z.object({ nickname });

export const userUpdateBody = z
  .object({
    nickname: nickname.optional(),
    language: z.enum(LANGUAGES, { error: "Unsupported language" }).optional(),
    photo: z
      .url({ protocol: /^https?$/, error: "Please enter a valid photo address" })
      .max(1024)
      .optional(),
    title: z.string().trim().max(64).optional(),
    /** one of the caller's own image uploads as the profile photo */
    photo_image_id: z
      .number({ error: "Please choose a photo" })
      .int({ error: "Please choose a photo" })
      .positive({ error: "Please choose a photo" })
      .optional(),
    /** the zone the account's day is counted in (daily check-in) */
    time_zone: timeZone.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { error: "Nothing to update" });

export type UserUpdateBody = z.infer<typeof userUpdateBody>;

// What the routes answer (docs/decisions/229).

/** get /api/Personal/personal_info */
export const personalInfoAnswer = z.object({
  info: z.object({
    id: z.number(),
    uuid: z.string(),
    nickname: z.string(),
    supplier_id: z.number().nullable(),
    type: z.string(),
    menu: z.array(z.string()),
    userName: z.string(),
    username: z.string(),
    email: z.string().nullable(),
    title: z.string().nullable(),
    photo: z.string().nullable(),
    time: z.number(),
    menuJson: z.string(),
    roles: z.array(z.string()),
    authBtnList: z.array(z.string()),
    rules: z.unknown(),
    bemobClickId: z.string().nullable(),
    language: z.string(),
    points: z.number(),
    all_points: z.number(),
    payment_permission: z.boolean(),
    sign_in_methods: z.array(z.enum(SIGN_IN_METHODS)),
  }),
});

/** The signed-in person as the app knows them: in their personal info and after every login (auth). */
export const userInfo = personalInfoAnswer.shape.info;

/** get /api/Personal/belongings: what logging out of a guest account would lose */
export const belongingsAnswer = z.object({
  credits: z.number(),
  /** creations made, making or waiting (failed ones are refunded and gone) */
  results: z.number(),
  /** a plan that still runs or renews */
  plan: z.boolean(),
  creator_page: z.boolean(),
});

/** get /api/Personal/select_users_integral */
export const selectUsersIntegralAnswer = z.object({
  points: z.number(),
  all_points: z.number(),
});

/** post /api/Personal/user_update */
export const userUpdateAnswer = z.object({});

/** get /api/Personal/creditHistory: SPEC.md §9 pages, as the order list has */
export const creditHistoryQuery = userOrdersQuery;

export const creditHistoryAnswer = pageOf(
  z.object({
    id: z.number(),
    /** signed: what the balance moved by */
    delta: z.number(),
    balance_after: z.number(),
    /** the ledger's reason, and the label the app shows for it */
    reason: z.string(),
    label: z.enum(LEDGER_LABELS),
    created_at: z.date(),
  }),
);
