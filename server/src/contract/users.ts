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
/**
 * What an emailed 6-digit code confirms (docs/decisions/379): each purpose has its own resend window and a code is used
 * up only by its own purpose (a sign-in code never deletes an account, a deletion code never signs in).
 */
export const EMAIL_CODE_PURPOSES = ["login", "account_deletion"] as const;
export type EmailCodePurpose = (typeof EMAIL_CODE_PURPOSES)[number];
/** SPEC.md §3: a missing nickname reads Guest_ plus the last 6 characters of the uuid, wherever a person is named. */
export function displayNickname(nickname: string | null, uuid: string): string {
  return nickname?.trim() || `Guest_${uuid.replace(/-/g, "").slice(-6)}`;
}
