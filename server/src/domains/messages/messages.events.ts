import type { Tx } from "../../db/client.ts";
import type { MessageEventChange } from "../../contract/messages.ts";
import { publishAccountEvents } from "../generation/progress.ts";

/** One message reaching one account: the side that did not write it, with its unread count after it. */
export interface Delivery {
  userId: number;
  threadId: number;
  messageId: number;
  unread: number;
}

const event = (userId: number, threadId: number, messageId: number, change: MessageEventChange, unread: number | null) => ({
  userId,
  type: "message" as const,
  data: { thread_id: threadId, message_id: messageId, change, unread },
});

/**
 * Where a message is delivered: every send (one-to-one or to all members) ends here, in its transaction. The
 * recipient's open streams hear it at the commit (docs/decisions/311); whatever else should hear of a delivery (the
 * notification bell) joins here.
 */
export async function delivered(tx: Tx, deliveries: Delivery[]): Promise<void> {
  await publishAccountEvents(
    tx,
    deliveries.map((d) => event(d.userId, d.threadId, d.messageId, "new", d.unread)),
  );
}

/** One unlock: the fan paid a locked message's price once. */
export interface Unlock {
  fanId: number;
  creatorId: number;
  threadId: number;
  messageId: number;
  price: number;
}

/**
 * Where an unlock happens, in the transaction that charged it: both sides' streams hear it (the fan's other tabs open
 * the media, the creator sees it was bought); the bell and the dashboard's unlock figure join here.
 */
export async function unlocked(tx: Tx, u: Unlock): Promise<void> {
  await publishAccountEvents(tx, [event(u.creatorId, u.threadId, u.messageId, "unlocked", null), event(u.fanId, u.threadId, u.messageId, "unlocked", null)]);
}
