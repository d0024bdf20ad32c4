/** Staff roles; equals Prisma's StaffRole enum. Import-free (docs/decisions/050). */
export const STAFF_ROLES = ["support", "marketer", "moderator", "admin"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
