/** Per-account quotas and hourly rates (issue 29, docs/decisions/251). Import-free (docs/decisions/050). */

/** SPEC-style messages; the consumer app translates them by these exact strings ({{n}} is the account's limit). */
export const LIMIT_MESSAGES = {
  /** An hourly rate per account: shown (unlike SPEC's silent 'Too many requests'), since the person asked for something. */
  hourly: "You have done this too often in the last hour. Please try again later",
  characters: "You can have at most {{n}} characters. Delete one to make another",
  conversations: "You can have at most {{n}} conversations. Delete one to start another",
  openRequests: "You can have at most {{n}} requests waiting for an answer",
  libraryItems: "A page can hold at most {{n}} items. Take one off to publish another",
  reportOpen: "You have already reported this. Our moderators will review it",
} as const;

/** A quota's message with the account's limit in it. */
export function quotaMessage(kind: "characters" | "conversations" | "openRequests" | "libraryItems", n: number): string {
  return LIMIT_MESSAGES[kind].replace("{{n}}", String(n));
}
