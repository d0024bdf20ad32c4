/**
 * A home link (SPEC.md §3, §5): the public address part of a model or creator page. One rule for training
 * (issue 14) and creator pages (issue 16): 3-20 characters, letters, digits, '_' and '-', starting with a letter
 * or digit, unique without regard to case, and none of the words the product's own routes and staff need.
 */
export const HOME_LINK_MIN = 3;
export const HOME_LINK_MAX = 20;
export const HOME_LINK_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** Refused as home links: route names, staff and brand words a page could impersonate. Compared lower-case. */
export const RESERVED_HOME_LINKS = [
  "401",
  "account",
  "admin",
  "administrator",
  "agreement",
  "api",
  "app",
  "assets",
  "billing",
  "charactercreatedit",
  "characters",
  "chat",
  "console",
  "contact",
  "creationstudio",
  "creator",
  "disclaimer",
  "docs",
  "function",
  "googlecallback",
  "help",
  "home",
  "legal",
  "login",
  "logout",
  "me",
  "media",
  "messages",
  "moderator",
  "mydata",
  "notices",
  "official",
  "pay",
  "payment",
  "privacy",
  "provenance",
  "report-content",
  "results",
  "reverie",
  "root",
  "sandbox-pay",
  "settings",
  "signup",
  "staff",
  "static",
  "support",
  "system",
  "terms",
  "training",
  "unsubscribe",
  "undefined",
  "null",
  "www",
] as const;

/** SPEC.md §5 wording; the consumer app translates by these exact strings. */
export const HOME_LINK_MESSAGES = {
  required: "Please input home link",
  length: "Home link must be 3-20 characters",
  characters: "Home link may use only letters, digits, '_' and '-', starting with a letter or digit",
  reserved: "This home link is reserved, please choose another",
  taken: "This home link is already taken",
} as const;

/** The first rule a home link breaks (uniqueness aside, which needs the database), or null when it is fine. */
export function homeLinkProblem(value: string | undefined | null): string | null {
  const v = (value ?? "").trim();
  if (!v) return HOME_LINK_MESSAGES.required;
  if (v.length < HOME_LINK_MIN || v.length > HOME_LINK_MAX) return HOME_LINK_MESSAGES.length;
  if (!HOME_LINK_PATTERN.test(v)) return HOME_LINK_MESSAGES.characters;
  if ((RESERVED_HOME_LINKS as readonly string[]).includes(v.toLowerCase())) return HOME_LINK_MESSAGES.reserved;
  return null;
}
