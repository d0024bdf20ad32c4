import { z } from "zod";
import { MSG } from "../../http/messages.ts";
import { userInfo } from "../users/users.schema.ts";

const email = z
  .string({ error: MSG.enterEmail })
  .trim()
  .min(1, { error: MSG.enterEmail })
  .max(254, { error: MSG.validEmail })
  .pipe(z.email({ error: MSG.validEmail }))
  .transform((e) => e.toLowerCase());

export const sendEmailCodeBody = z.object({ email });

export const emailLoginBody = z.object({
  email,
  code: z
    .string({ error: MSG.enterCode })
    .trim()
    .min(1, { error: MSG.enterCode })
    .regex(/^\d{4,6}$/, { error: MSG.codeDigits }),
});

export const googleLoginBody = z
  .object({
    id_token: z.string().min(1).max(4096).optional(),
    code: z.string().min(1).max(2048).optional(),
  })
  .refine((b) => b.id_token || b.code, { error: "Google sign-in did not return a credential" });

export const staffLoginBody = z.object({
  username: z.string({ error: "Please enter username" }).trim().min(1, { error: "Please enter username" }).max(64),
  password: z.string({ error: "Please enter password" }).min(1, { error: "Please enter password" }).max(256),
  code: z
    .string({ error: MSG.enterCode })
    .trim()
    .regex(/^\d{6}$/, { error: MSG.enterCode }),
});

export type EmailLoginBody = z.infer<typeof emailLoginBody>;

/** A Telegram Mini App's initData, as the app received it (a query string, up to a few KB). */
export const channelLoginBody = z.object({
  channel_token: z
    .string({ error: "Sorry, you do not have login permission" })
    .min(1, { error: "Sorry, you do not have login permission" })
    .max(8192, { error: "Sorry, you do not have login permission" }),
});

// What the routes answer (docs/decisions/229).

/** post /api/login/visitor, and every other login of a person: the session and who it is */
export const visitorAnswer = z.object({
  token: z.string(),
  user_info: userInfo,
  is_register: z.union([z.literal(0), z.literal(1)]),
});

/** post /api/login/sendEmailCode */
export const sendEmailCodeAnswer = z.object({
  expires_in: z.number(),
  resend_in: z.number(),
});

/** post /api/OrderJpay/channelServerLogin */
export const channelServerLoginAnswer = visitorAnswer.extend({
  playerUid: z.string(),
  serverId: z.string(),
});

/** get /api/login/getLoginUrl */
export const getLoginUrlAnswer = z.object({
  url: z.string(),
  state: z.string(),
});

/** post /admin/api/login */
export const loginAnswer = z.object({
  token: z.string(),
  staffId: z.number(),
});

/** post /api/login/logout, /admin/api/logout */
export const logoutAnswer = z.object({});
