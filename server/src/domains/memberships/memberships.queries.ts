import type { SqlRunner } from "../../db/client.ts";
import { Prisma, type Membership } from "../../db/generated/client.ts";
import { modelOfRow } from "../../db/rows.ts";
import { col, statement, type RowOf } from "../../db/statement.ts";

/** A `memberships` row as PostgreSQL returns it (`SELECT *`, `RETURNING *`): every column, in the table's order. */
const membershipColumns = {
  id: col.int,
  user_id: col.int,
  order_id: col.int,
  provider: col.text,
  provider_ref: col.text,
  status: col.text,
  credits_per_period: col.int,
  periods_paid: col.int,
  current_period_end: col.time.orNull,
  cancel_at_period_end: col.bool,
  ended_at: col.time.orNull,
  created_at: col.time,
  updated_at: col.time,
  reversed_periods: col.texts.orNull,
  state_changed_at: col.time.orNull,
};

/** A `memberships` row from raw SQL as Prisma's model; rows from before migration 0183 may hold no reversed periods. */
export function membershipOfRow(r: RowOf<typeof membershipColumns>): Membership {
  const m = modelOfRow<Membership>(r);
  return { ...m, reversedPeriods: m.reversedPeriods ?? [] };
}

/** Where a paid period ends: the provider's date where it says one, else the plan's length (see periodEnd). */
interface PeriodEndParams {
  productId: number;
  currentPeriodEnd: Date | null;
}

/**
 * When the period just paid ends, as SQL: the provider's date where it gives one (Stripe, PayPal), else the plan's
 * length counted from the later of now and `previousEnd` (Pagsmile says only which period was paid); NULL when the
 * product has no period.
 */
function periodEnd(p: PeriodEndParams, previousEnd: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`COALESCE(${p.currentPeriodEnd}::timestamp(3),
    GREATEST(now(), ${previousEnd}) + make_interval(days => (SELECT interval_days FROM products WHERE id = ${p.productId})))`;
}

const undatedPeriod: PeriodEndParams = { productId: 1, currentPeriodEnd: null };

/** Locks and reads the membership of a provider subscription, one statement (it runs on the notification path). */
export const membershipByRefForUpdate = statement({
  columns: membershipColumns,
  sql: (p: { provider: string; ref: string }) => Prisma.sql`SELECT * FROM memberships WHERE provider = ${p.provider} AND provider_ref = ${p.ref} FOR UPDATE`,
  example: { provider: "paypal", ref: "I-1" },
});

/** membershipByRefForUpdate as Prisma's model, or null when the subscription has no membership. */
export async function lockByRef(tx: SqlRunner, provider: string, ref: string): Promise<Membership | null> {
  const row = await membershipByRefForUpdate.first(tx, { provider, ref });
  return row ? membershipOfRow(row) : null;
}

/** What a paid plan order starts: its owner's membership of the provider's subscription, credited per period. */
interface StartParams extends PeriodEndParams {
  userId: number;
  orderId: number;
  provider: string;
  ref: string;
  credits: number;
}

/**
 * The membership a paid plan order starts, once (the order is unique): a second start only takes the provider's
 * period end, where it says one. One statement, on the notification path.
 */
export const startMembership = statement({
  columns: membershipColumns,
  sql: (p: StartParams) => Prisma.sql`
    INSERT INTO memberships (user_id, order_id, provider, provider_ref, credits_per_period, current_period_end, updated_at)
    VALUES (${p.userId}, ${p.orderId}, ${p.provider}, ${p.ref}, ${p.credits}, ${periodEnd(p, Prisma.sql`NULL`)}, now())
    ON CONFLICT (order_id) DO UPDATE SET current_period_end = COALESCE(${p.currentPeriodEnd}::timestamp(3), memberships.current_period_end), updated_at = now()
    RETURNING *`,
  example: { ...undatedPeriod, userId: 1, orderId: 1, provider: "paypal", ref: "I-1", credits: 100 },
});

/** One more period paid: counted, and the membership runs to the new period's end. */
export const renewMembership = statement({
  columns: {},
  sql: (p: PeriodEndParams & { id: number }) => Prisma.sql`
    UPDATE memberships SET periods_paid = periods_paid + 1,
      current_period_end = COALESCE(${periodEnd(p, Prisma.sql`current_period_end`)}, current_period_end), updated_at = now()
    WHERE id = ${p.id}`,
  example: { ...undatedPeriod, id: 1 },
});

/**
 * A period whose money went back: recorded once (`reversed_periods` is the gate), the membership one period shorter.
 * No row when the period was reversed before.
 */
export const shortenMembership = statement({
  columns: { id: col.int },
  sql: (p: { id: number; period: string }) => Prisma.sql`
    UPDATE memberships SET reversed_periods = array_append(reversed_periods, ${p.period}), periods_paid = GREATEST(periods_paid - 1, 0),
      current_period_end = current_period_end - make_interval(days => COALESCE((SELECT interval_days FROM products p JOIN orders o ON o.product_id = p.id WHERE o.id = memberships.order_id), 0)),
      updated_at = now()
    WHERE id = ${p.id} AND NOT (${p.period} = ANY (COALESCE(reversed_periods, '{}')))
    RETURNING id`,
  example: { id: 1, period: "PAY-1" },
});

/** The membership a plan order started ends now (its order was refunded). */
export const endMembershipOfOrder = statement({
  columns: {},
  sql: (p: { orderId: number }) =>
    Prisma.sql`UPDATE memberships SET status = 'ended', ended_at = now(), cancel_at_period_end = false, updated_at = now() WHERE order_id = ${p.orderId} AND status <> 'ended'`,
  example: { orderId: 1 },
});
