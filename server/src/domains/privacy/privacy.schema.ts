import { z } from "zod";
import { ACCOUNT_DELETION_STATUSES, DATA_EXPORT_STATUSES } from "../../contract/privacy.ts";
import { MSG } from "../../http/messages.ts";

const when = z.date().nullable();

export const exportAnswer = z.object({
  id: z.number().int(),
  status: z.enum(DATA_EXPORT_STATUSES),
  created_at: z.date(),
  ready_at: when,
  expires_at: when,
  size_bytes: z.number().nullable(),
});

export const deletionAnswer = z.object({
  id: z.number().int(),
  status: z.enum(ACCOUNT_DELETION_STATUSES),
  requested_at: z.date(),
  /** when the account is erased unless the deletion is undone first */
  erase_after: z.date(),
});

/** get /api/privacy/status: the My data section's state. confirm_by: an emailed code, or in the app (no email on file). */
export const privacyStatusAnswer = z.object({
  export: exportAnswer.nullable(),
  /** when the person may ask for their next export (one a day, decision 372); null: now */
  next_export_at: when,
  deletion: deletionAnswer.nullable(),
  confirm_by: z.enum(["email", "app"]),
});

export const exportQuery = z.object({ id: z.coerce.number({ error: MSG.notFound }).int().positive({ error: MSG.notFound }) });

/** get /api/privacy/export/link?id=: a signed link to the archive, valid `expires_in` seconds. */
export const exportLinkAnswer = z.object({ url: z.string(), expires_in: z.number().int() });

export const deletionCodeAnswer = z.object({ expires_in: z.number().int(), resend_in: z.number().int() });

/** post /api/privacy/deletion: the emailed code, or (an account without email) the in-app confirmation. */
export const deletionBody = z.object({
  code: z
    .string({ error: MSG.enterCode })
    .trim()
    .regex(/^\d{4,6}$/, { error: MSG.codeDigits })
    .optional(),
  confirm: z.boolean().optional(),
});
