/** Support inbox words (issue 35 item 3, docs/decisions/281). Import-free (docs/decisions/050). */

/** open: waiting for support; answered: support replied, waiting for the person; closed: done (a new message opens a new thread). */
export const SUPPORT_THREAD_STATUSES = ["open", "answered", "closed"] as const;
export type SupportThreadStatus = (typeof SUPPORT_THREAD_STATUSES)[number];

/** Who wrote a message of a thread. */
export const SUPPORT_AUTHORS = ["person", "staff"] as const;
export type SupportAuthor = (typeof SUPPORT_AUTHORS)[number];

/** The longest message either side may write. */
export const SUPPORT_MESSAGE_MAX = 2000;

/** How often the open bubble asks for replies (no per-person event stream exists; decision 281). */
export const SUPPORT_POLL_SECONDS = 10;
