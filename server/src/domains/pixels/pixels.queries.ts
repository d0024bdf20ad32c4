import { purchaseEventId, type ConversionStatus } from "../../contract/pixels.ts";
import { Prisma, type Order } from "../../db/generated/client.ts";
import { col, statement } from "../../db/statement.ts";
import { CHECKOUT_EVENT } from "./pixels.schema.ts";

const PENDING: ConversionStatus = "pending";

/** What a purchase conversion takes of a paid order. */
type PaidOrder = Pick<Order, "id" | "userId" | "channelId" | "finalPriceMinor" | "currency">;
const exampleOrder: PaidOrder = { id: 1, userId: 1, channelId: null, finalPriceMinor: 500, currency: "USD" };

/**
 * An order's purchase conversion, recorded once (a second call for the same order inserts nothing). The checkout's
 * report (the visitor's consent, click ids, channel) is the newest `payment_add` event of the order's buyer naming
 * the order. A row only when the visitor allowed advertising, with the checkout's context.
 */
export const recordPurchaseConversion = statement({
  columns: { id: col.int, channel_id: col.text.orNull, context: col.json.orNull },
  sql: (o: PaidOrder) => Prisma.sql`
        WITH checkout AS (
          SELECT payload, channel_id FROM pixel_events
          WHERE event = ${CHECKOUT_EVENT} AND user_id = ${o.userId} AND payload -> 'order_id' = to_jsonb(${o.id}::int)
          ORDER BY id DESC LIMIT 1),
        conversion AS (
          INSERT INTO purchase_conversions (order_id, user_id, event_id, channel_id, value_minor, currency, advertising_consent)
          SELECT ${o.id}, ${o.userId}, ${purchaseEventId(o.id)}, COALESCE(${o.channelId}::text, (SELECT channel_id FROM checkout)),
            ${o.finalPriceMinor}, ${o.currency}, COALESCE((SELECT payload -> 'consent' -> 'advertising' = '1'::jsonb FROM checkout), false)
          ON CONFLICT (order_id) DO NOTHING
          RETURNING id, channel_id, advertising_consent)
        SELECT id, channel_id, (SELECT payload -> 'context' FROM checkout) AS context FROM conversion WHERE advertising_consent`,
  example: exampleOrder,
});

/**
 * Claims up to `limit` pending deliveries due at `now`, moving their next_attempt_at to `lease` (past the call's
 * time-out), so no other process takes the same row meanwhile.
 */
export const claimDueDeliveries = statement({
  columns: { id: col.int },
  sql: (p: { now: Date; lease: Date; limit: number }) => Prisma.sql`
        UPDATE conversion_deliveries SET attempts = attempts + 1, next_attempt_at = ${p.lease}
        WHERE id IN (
          SELECT id FROM conversion_deliveries WHERE status = ${PENDING} AND next_attempt_at <= ${p.now}
          ORDER BY next_attempt_at LIMIT ${p.limit} FOR UPDATE SKIP LOCKED)
        RETURNING id`,
  example: { now: new Date(0), lease: new Date(0), limit: 20 },
});

/** A channel's server_conversions, its row locked for the rest of the transaction. */
export const lockChannelConversions = statement({
  columns: { server_conversions: col.json.orNull },
  sql: (p: { id: number }) => Prisma.sql`SELECT server_conversions FROM channels WHERE id = ${p.id} FOR UPDATE`,
  example: { id: 1 },
});

/** The conversion outbox's backlog: deliveries still pending, and the age of the oldest, for the operations figures. */
export const outboxBacklog = statement({
  columns: { pending: col.int, oldest_seconds: col.float },
  sql: () => Prisma.sql`
    SELECT count(*)::int AS pending, COALESCE(extract(epoch FROM now() - min(created_at)), 0)::float8 AS oldest_seconds
    FROM conversion_deliveries WHERE status = ${PENDING}`,
  example: {},
});
