/** User-facing texts of SPEC.md §5 and §8, word for word. The consumer app translates them by these exact strings. */
export const MSG = {
  ok: "success",
  loggedOut: "You have been logged out. Please log in again",
  forbidden: "There is no permission for the current operation",
  notFound: "The access resource does not exist",
  unknown: "An unknown error in the system. Please report it to the administrator",
  tooManyRequests: "Too many requests",
  noLoginPermission: "Sorry, you do not have login permission",
  notAuthorized: "not authorized to operate",
  enterEmail: "Please enter email",
  validEmail: "Please enter a valid email",
  enterCode: "Please enter verification code",
  codeDigits: "Please enter 4-6 digit verification code",
  wrongCode: "Please enter the correct verification code",
  badRequest: "Invalid request",
} as const;
