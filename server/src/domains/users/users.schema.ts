import { z } from "zod";
import { LANGUAGES } from "../../contract/locales.ts";

const nickname = z
  .string({ error: "Please enter a nickname" })
  .trim()
  .min(1, { error: "Please enter a nickname" })
  .max(32, { error: "Nickname can be at most 32 characters" });

export const uploadUserInfoBody = z.object({ nickname });

export const userUpdateBody = z
  .object({
    nickname: nickname.optional(),
    language: z.enum(LANGUAGES, { error: "Unsupported language" }).optional(),
    photo: z.url({ protocol: /^https?$/, error: "Please enter a valid photo address" }).max(1024).optional(),
    title: z.string().trim().max(64).optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { error: "Nothing to update" });

export type UserUpdateBody = z.infer<typeof userUpdateBody>;
