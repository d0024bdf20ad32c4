/** User words; each equals its Prisma enum. Import-free (docs/decisions/050). */
export const LOGIN_TYPES = ["visitor", "noRegister", "registered"] as const;
export type LoginType = (typeof LOGIN_TYPES)[number];

export const USER_ROLES = ["visitor", "user", "creator"] as const;
export type UserRole = (typeof USER_ROLES)[number];

/**
 * Said to a guest who tries what needs a saved account (a creator page, a training): adding an email keeps everything
 * the guest has (the guest merge, docs/decisions/004).
 */
export const SAVE_ACCOUNT_MESSAGE = "Please save your account with an email first";
/** The ways a person signs in to their account: an emailed code, Google, or the Telegram Mini App (channel login). */
export const SIGN_IN_METHODS = ["email", "google", "telegram"] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];
/** SPEC.md §3: a missing nickname reads Guest_ plus the last 6 characters of the uuid, wherever a person is named. */
export function displayNickname(nickname: string | null, uuid: string): string {
  return nickname?.trim() || `Guest_${uuid.replace(/-/g, "").slice(-6)}`;
}
