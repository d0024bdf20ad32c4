/** User words; each equals its Prisma enum. Import-free (docs/decisions/050). */
export const LOGIN_TYPES = ["visitor", "noRegister", "registered"] as const;
export type LoginType = (typeof LOGIN_TYPES)[number];

export const USER_ROLES = ["visitor", "user", "creator"] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** SPEC.md §3: a missing nickname reads Guest_ plus the last 6 characters of the uuid, wherever a person is named. */
export function displayNickname(nickname: string | null, uuid: string): string {
  return nickname?.trim() || `Guest_${uuid.replace(/-/g, "").slice(-6)}`;
}
