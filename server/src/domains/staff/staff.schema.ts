import { z } from "zod";
import { boolFilter, idsFilter, textFilter } from "../../http/list-filters.ts";
import { STAFF_ROLES } from "../../contract/staff.ts";

const roles = z
  .array(z.enum(STAFF_ROLES, { error: "roles are support, marketer, moderator or admin" }))
  .min(1, { error: "Give at least one role" })
  .max(4);

export const staffCreateBody = z.strictObject({
  username: z
    .string({ error: "Please enter username" })
    .trim()
    .min(3, { error: "username must be 3-64 characters" })
    .max(64)
    .regex(/^[\w.@-]+$/, { error: "username may hold letters, digits, _ . @ -" }),
  roles,
});
export type StaffCreateBody = z.infer<typeof staffCreateBody>;

export const staffUpdateBody = z.object({ roles: roles.optional(), active: z.boolean().optional() });
export type StaffUpdateBody = z.infer<typeof staffUpdateBody>;

export const staffFilter = z.strictObject({ id: idsFilter, q: textFilter, role: z.enum(STAFF_ROLES).optional(), active: boolFilter });
export type StaffFilter = z.infer<typeof staffFilter>;
export const staffSortable = ["id", "username", "createdAt"] as const;

export const outboxFilter = z.strictObject({ id: idsFilter, to: textFilter, q: textFilter });
export type OutboxFilter = z.infer<typeof outboxFilter>;
export const outboxSortable = ["id", "createdAt", "sentAt", "to"] as const;

// What the routes answer (docs/decisions/229).

/** staff list and get: the account without its secrets (the service selects only these fields) */
export const staffRow = z.object({
  id: z.number(),
  createdAt: z.date(),
  username: z.string(),
  roles: z.array(z.enum(STAFF_ROLES)),
  active: z.boolean(),
  updatedAt: z.date(),
});
export const staffRecord = staffRow;

/** staff create: the new account with the password and second factor it is handed once */
export const staffRecord2 = staffRecord.extend({
  password: z.string(),
  totpSecret: z.string(),
  otpauthUri: z.string(),
});

/** outbox list  */
export const outboxRecord = z.object({
  error: z.string().nullable(),
  id: z.number(),
  createdAt: z.date(),
  to: z.string(),
  body: z.string(),
  sentAt: z.date().nullable(),
  subject: z.string(),
});

/** get /admin/api/me */
export const meAnswer = z.object({
  id: z.number(),
  username: z.string(),
  roles: z.array(z.enum(STAFF_ROLES)),
  authBtnList: z.array(z.string()),
  rules: z.unknown(),
});
