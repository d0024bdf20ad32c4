import type { Tx } from "../../db/client.ts";
import type { MessageEventChange } from "../../contract/messages.ts";
import { publishAccountEvents } from "../generation/progress.ts";
import type { RecordNotification, RecordNotifications } from "../notifications/notifications.service.ts";

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

/** One unlock: the fan paid a locked message's price once. */
export interface Unlock {
  fanId: number;
  creatorId: number;
  threadId: number;
  messageId: number;
  price: number;
}

/**
 * Where messages are delivered and unlocked, in the transaction that sends or charges them: the other side's open
 * streams hear it at the commit (docs/decisions/311), and the bell records it (docs/decisions/312), so a rolled-back
 * send tells no one.
 */
export function createMessageEvents(notify: { record: RecordNotification; recordMany: RecordNotifications }) {
  return {
    /** Every send (one-to-one or to all members, by the account `from`) ends here: each recipient hears of a new message in its thread. */
    async delivered(tx: Tx, from: number, deliveries: Delivery[]): Promise<void> {
      await publishAccountEvents(
        tx,
        deliveries.map((d) => event(d.userId, d.threadId, d.messageId, "new", d.unread)),
      );
      // one statement for a mass message's every member, not one per member
      await notify.recordMany(tx, { kind: "message", actorId: from, to: deliveries.map((d) => ({ userId: d.userId, subjectId: d.threadId })) });
    },

    /** The fan paid a locked message's price once: the fan's other tabs open the media, the creator learns it was bought. */
    async unlocked(tx: Tx, u: Unlock): Promise<void> {
      await publishAccountEvents(tx, [
        event(u.creatorId, u.threadId, u.messageId, "unlocked", null),
        event(u.fanId, u.threadId, u.messageId, "unlocked", null),
      ]);
      await notify.record(tx, { userId: u.creatorId, kind: "unlock", subjectId: u.threadId, actorId: u.fanId, amount: u.price });
    },
  };
}

export type MessageEvents = ReturnType<typeof createMessageEvents>;
