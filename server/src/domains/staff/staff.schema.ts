import { z } from "zod";
import { boolFilter, idsFilter, textFilter } from "../../http/list-filters.ts";
import { STAFF_ROLES } from "../../contract/staff.ts";

const roles = z.array(z.enum(STAFF_ROLES, { error: "roles are support, marketer, moderator or admin" })).min(1, { error: "Give at least one role" }).max(4);

export const staffCreateBody = z.strictObject({
  username: z.string({ error: "Please enter username" }).trim().min(3, { error: "username must be 3-64 characters" }).max(64).regex(/^[\w.@-]+$/, { error: "username may hold letters, digits, _ . @ -" }),
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
