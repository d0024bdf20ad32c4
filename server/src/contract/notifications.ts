/** The bell and its email digest (issue 32 item 7, docs/decisions/312). Import-free (docs/decisions/050). */

/**
 * What a notification is about. like and remix name a gallery item, tip a creator page; follow (the account itself),
 * message and unlock (a thread) are recorded by the follows and messages features.
 */
export const NOTIFICATION_KINDS = ["like", "remix", "follow", "tip", "message", "unlock"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Kinds that count each person once per thing, whatever they undo and do again (an unlike and a like, a second remix). */
const ONCE_PER_PERSON = ["like", "remix", "follow"] as const satisfies readonly NotificationKind[];
export const countedOncePerPerson = (kind: NotificationKind): boolean => (ONCE_PER_PERSON as readonly NotificationKind[]).includes(kind);
/** Kinds that count every event (each message, each tip), the only ones recorded to many accounts in one statement. */
export type CountedEachTime = Exclude<NotificationKind, (typeof ONCE_PER_PERSON)[number]>;

/** The most lines one page of the bell's list holds. */
export const NOTIFICATION_PAGE_MAX = 50;

/** The consumer app translates by these exact strings. */
export const NOTIFICATION_MESSAGES = {
  badUnsubscribe: "This unsubscribe link is not valid",
} as const;
