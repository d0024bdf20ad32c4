/** SPEC.md §5 login rules, checked in the browser before the server checks them again. Messages are the SPEC texts. */
export const LOGIN_MESSAGES = {
  enterEmail: "Please enter email",
  validEmail: "Please enter a valid email",
  enterCode: "Please enter verification code",
  codeDigits: "Please enter 4-6 digit verification code",
} as const;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function emailProblem(email: string): string | null {
  if (!email.trim()) return LOGIN_MESSAGES.enterEmail;
  if (!EMAIL.test(email.trim())) return LOGIN_MESSAGES.validEmail;
  return null;
}

export function codeProblem(code: string): string | null {
  if (!code.trim()) return LOGIN_MESSAGES.enterCode;
  if (!/^\d{4,6}$/.test(code.trim())) return LOGIN_MESSAGES.codeDigits;
  return null;
}
