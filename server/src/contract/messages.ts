/** Messages between fans and creators (issue 32 item 6, docs/decisions/310). Import-free (docs/decisions/050). */

/** The consumer app and the console translate by these exact strings. */
export const MESSAGE_MESSAGES = {
  ownPage: "You cannot message your own page",
  empty: "Please write a message or attach an item",
  bodyTooLong: "A message can be at most {{max}} characters",
  priceRange: "A locked message costs between 1 and {{max}} credits",
  priceNeedsItem: "Only a message with an item attached can be locked",
  itemNotOnPage: "Attach an item of your own page",
  fanTextOnly: "Fans send text only",
  blocked: "This fan does not receive your messages",
  notLocked: "This message is not locked",
  fanBanned: "This account is banned and cannot unlock messages",
  noMembers: "Your page has no members to message",
} as const;

/** What a `message` event on the stream says happened to a thread's message (docs/decisions/311). */
export const MESSAGE_EVENT_CHANGES = ["new", "unlocked"] as const;
export type MessageEventChange = (typeof MESSAGE_EVENT_CHANGES)[number];

export const MESSAGE_BODY_MAX = 2000;
/** The highest price of one locked message (credits): one movement within the ledger's limits, as a tip's. */
export const MESSAGE_PRICE_MAX = 100_000;
/** Messages of a thread per page, newest first; threads per page of the list. */
export const MESSAGE_PAGE_SIZE = 50;
export const THREAD_PAGE_SIZE = 50;

/** The fan's side of an unlock in the ledger (the creator's side is EARNING_REASON.messageUnlock). */
export const MESSAGE_LEDGER_REASON = {
  /** the price leaving the fan's balance when they open a locked message */
  unlock: "message_unlock",
} as const;
