import { Prisma, type Order, type OrderStatus } from "../../db/generated/client.ts";
import type { SqlRunner } from "../../db/client.ts";
import { modelOfRow } from "../../db/rows.ts";
import { col, statement, type Column, type RowOf } from "../../db/statement.ts";
import { statusOfText, statusText } from "./orders.status.ts";
import type { PaymentUpdate } from "./payment-update.ts";

/** An `orders` row as PostgreSQL returns it (`SELECT *`, `RETURNING *`): every column, in the table's order. */
const orderColumns = {
  id: col.int,
  order_no: col.text,
  user_id: col.int,
  product_id: col.int,
  quantity: col.int,
  amount_minor: col.int,
  final_price_minor: col.int,
  currency: col.text,
  credits: col.int,
  status: col.text,
  provider: col.text,
  provider_ref: col.text.orNull,
  pay_url: col.text.orNull,
  channel_id: col.text.orNull,
  failure_reason: col.text.orNull,
  created_at: col.time,
  updated_at: col.time,
  paid_at: col.time.orNull,
  expires_at: col.time,
  bonus_credits: col.int,
  received_amount: col.text.orNull,
  received_currency: col.text.orNull,
  refund_started_at: col.time.orNull,
  provider_payment_ref: col.text.orNull,
  refunded_minor: col.int.orNull,
  product_name: col.text,
  terms_version: col.int.orNull,
  payer_ref: col.text.orNull,
};
type OrderRow = RowOf<typeof orderColumns>;

/** The order columns of a LEFT JOIN that may match no order: then every one of them is NULL. */
const maybeOrderColumns = Object.fromEntries(Object.entries(orderColumns).map(([name, c]) => [name, { types: c.types, nullable: true }])) as {
  [K in keyof OrderRow]: Column<OrderRow[K] | null>;
};
type MaybeOrderRow = RowOf<typeof maybeOrderColumns>;

/** An `orders` row from raw SQL as Prisma's model (the status is stored under its SPEC name, e.g. `3ds_pending`). */
export function orderOfRow(r: OrderRow): Order {
  return { ...modelOfRow<Order>(r), status: statusOfText(r.status) };
}

/** A row of the LEFT JOIN with an order in it: the id, never NULL in the table, is there only when one matched. */
function isOrderRow(r: MaybeOrderRow): r is OrderRow {
  return r.id !== null;
}

/** The order a row of `lockAndStore` carries, or null when the fact named no order of ours. */
export function orderOfMaybeRow(r: MaybeOrderRow): Order | null {
  return isOrderRow(r) ? orderOfRow(r) : null;
}

/** Whether a provider's event was stored already: a redelivery needs no transaction and no lock (one indexed read). */
export const storedEvent = statement({
  columns: { id: col.int },
  sql: (p: { provider: string; eventId: string }) => Prisma.sql`SELECT id FROM payment_events WHERE provider = ${p.provider} AND event_id = ${p.eventId}`,
  example: { provider: "sandbox", eventId: "evt_1" },
});

/** What lockAndStore reads of a provider's fact. */
type EventFact = Pick<PaymentUpdate, "providerRef" | "orderNo" | "paymentRef" | "eventId" | "type" | "payload" | "amountMinor" | "currency">;
const exampleFact: EventFact = { providerRef: "ref", eventId: "evt_1", type: "paid", payload: { paid: true }, amountMinor: 100, currency: "USD" };

/**
 * The first statement of a provider fact's transaction, in one round trip: finds the order the fact is about (by the
 * provider's reference, our order number, or the provider's id of the payment for facts that name only that: refunds,
 * chargebacks), locks it, stores the event in payment_events — the exactly-once gate: when a twin stored it first,
 * `stored` is false — and reads whether the order's owner is banned. The order's row is locked before the event is
 * inserted, so a twin waits on the lock and then meets the stored event. Raw SQL on purpose: this runs for every
 * notification, and one statement is a fraction of a Prisma query's CPU (bench/notifications).
 *
 * Every identifier the fact names must agree with the one order it finds (decision 250): when they name two orders, or
 * the order stored another provider reference, `conflict` is true and no order is locked or answered. A conflicting
 * fact, and one whose amount or currency is not the order's when `checksAmount` (`amount_refused`), is recorded under
 * a name of its own (`refused:<event id>:<md5 of its body>`), so it never takes the slot of the genuine event.
 */
export const lockAndStore = statement({
  columns: { ...maybeOrderColumns, stored: col.bool, owner_banned: col.bool.orNull, conflict: col.bool, amount_refused: col.bool },
  sql: ({ provider, fact: u, checksAmount }: { provider: string; fact: EventFact; checksAmount: boolean }) => {
    const ref = u.providerRef ?? null;
    const orderNo = u.orderNo ?? null;
    const payload = JSON.stringify(u.payload ?? null);
    return Prisma.sql`
    WITH named AS (
      SELECT id, provider_ref, order_no FROM orders
      WHERE provider = ${provider} AND (provider_ref = ${ref} OR order_no = ${orderNo} OR provider_payment_ref = ${u.paymentRef ?? null})),
    agreed AS (
      SELECT id FROM named
      WHERE (SELECT count(*) FROM named) = 1
        AND (${ref}::text IS NULL OR provider_ref IS NULL OR provider_ref = ${ref})
        AND (${orderNo}::text IS NULL OR order_no = ${orderNo})),
    o AS (SELECT * FROM orders WHERE id = (SELECT id FROM agreed) FOR UPDATE),
    verdict AS (
      SELECT EXISTS (SELECT 1 FROM named) AND NOT EXISTS (SELECT 1 FROM agreed) AS conflict,
        COALESCE((SELECT ${checksAmount} AND (${u.amountMinor ?? null}::int <> o.final_price_minor OR upper(${u.currency ?? null}::text) <> upper(o.currency)) FROM o), false) AS amount_refused),
    event AS (
      INSERT INTO payment_events (provider, event_id, type, order_id, payload)
      SELECT ${provider}, CASE WHEN v.conflict OR v.amount_refused THEN 'refused:' || ${u.eventId} || ':' || md5(${payload}) ELSE ${u.eventId} END,
        ${u.type}, (SELECT id FROM o), ${payload}::jsonb
      FROM verdict v
      ON CONFLICT (provider, event_id) DO NOTHING
      RETURNING id)
    SELECT o.*, EXISTS (SELECT 1 FROM event) AS stored, (SELECT banned_at IS NOT NULL FROM users WHERE id = o.user_id) AS owner_banned,
      v.conflict, v.amount_refused
    FROM verdict v LEFT JOIN o ON true`;
  },
  example: { provider: "sandbox", fact: exampleFact, checksAmount: true },
});

/** What a statement of the notification path changes on an order; a field left out is left as it is. */
export interface OrderChanges {
  /** What the provider says arrived. */
  received?: { amount: string; currency: string };
  providerPaymentRef?: string;
  /** Who paid, as the provider names them. */
  payerRef?: string;
  status?: OrderStatus;
  /** paid_at becomes now(). */
  paidNow?: true;
  failureReason?: string | null;
  refundClaimCleared?: true;
  refundedMinor?: number;
}

function setsOf(c: OrderChanges): Prisma.Sql[] {
  return [
    ...(c.received ? [Prisma.sql`received_amount = ${c.received.amount}`, Prisma.sql`received_currency = ${c.received.currency}`] : []),
    ...(c.providerPaymentRef !== undefined ? [Prisma.sql`provider_payment_ref = ${c.providerPaymentRef}`] : []),
    ...(c.payerRef !== undefined ? [Prisma.sql`payer_ref = ${c.payerRef}`] : []),
    ...(c.status ? [Prisma.sql`status = ${statusText(c.status)}::"OrderStatus"`] : []),
    ...(c.paidNow ? [Prisma.sql`paid_at = now()`] : []),
    ...(c.failureReason !== undefined ? [Prisma.sql`failure_reason = ${c.failureReason}`] : []),
    ...(c.refundClaimCleared ? [Prisma.sql`refund_started_at = NULL`] : []),
    ...(c.refundedMinor !== undefined ? [Prisma.sql`refunded_minor = ${c.refundedMinor}`] : []),
    Prisma.sql`updated_at = now()`,
  ];
}

const everyChange: OrderChanges = {
  received: { amount: "1", currency: "USDT" },
  providerPaymentRef: "pay",
  payerRef: "payer",
  status: "paid",
  paidNow: true,
  failureReason: null,
  refundClaimCleared: true,
  refundedMinor: 1,
};

/** Changes an order's columns in one statement and answers the row (raw SQL: the notification path's writes, see lockAndStore). */
export const updateOrder = statement({
  columns: orderColumns,
  sql: (p: { id: number; changes: OrderChanges }) => Prisma.sql`UPDATE orders SET ${Prisma.join(setsOf(p.changes))} WHERE id = ${p.id} RETURNING *`,
  example: { id: 1, changes: everyChange },
});

/** Changes an order's columns (updateOrder) and answers the order as Prisma's model. */
export async function changeOrder(tx: SqlRunner, id: number, changes: OrderChanges): Promise<Order> {
  const [row] = await updateOrder.rows(tx, { id, changes });
  return orderOfRow(row);
}

/** Locks an order's row (a staff refund's steps). */
export const lockOrder = statement({
  columns: { id: col.int },
  sql: (p: { id: number }) => Prisma.sql`SELECT id FROM orders WHERE id = ${p.id} FOR UPDATE`,
  example: { id: 1 },
});

/** Locks a user's row: serialises the user's order creation, so per-user limits hold under concurrent clicks. */
export const lockUser = statement({
  columns: { id: col.int },
  sql: (p: { userId: number }) => Prisma.sql`SELECT id FROM users WHERE id = ${p.userId} FOR UPDATE`,
  example: { userId: 1 },
});

/** Locks a user's row and reads the balance a refund takes credits back from. */
export const lockUserPoints = statement({
  columns: { points: col.int },
  sql: (p: { userId: number }) => Prisma.sql`SELECT points FROM users WHERE id = ${p.userId} FOR UPDATE`,
  example: { userId: 1 },
});
