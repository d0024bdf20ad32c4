/** User words; each equals its Prisma enum. Import-free (docs/decisions/050). */
export const LOGIN_TYPES = ["visitor", "noRegister", "registered"] as const;
export type LoginType = (typeof LOGIN_TYPES)[number];

export const USER_ROLES = ["visitor", "user", "creator"] as const;
export type UserRole = (typeof USER_ROLES)[number];
