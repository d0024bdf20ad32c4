import type { Logger } from "pino";
import type { Db, Tx } from "../../db/client.ts";
import type { Order } from "../../db/generated/client.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import type { MembershipsService } from "../memberships/memberships.service.ts";
import { changeOrder, lockAndStore, orderOfMaybeRow, storedEvent, type OrderChanges } from "./orders.queries.ts";
import type { OrderReversals } from "./orders.reversals.ts";
import { BANNED_AT_PAYMENT, nextStatus } from "./orders.status.ts";
import type { PaymentUpdate, SubscriptionFacts } from "./payment-update.ts";

export interface AppliedUpdate {
  /** True when this provider event was processed before: nothing happened now. */
  duplicate: boolean;
  /** The order after the update; null when unknown, or for a duplicate (nothing was read: reload it if needed). */
  order: Order | null;
  changed: boolean;
}

/** What a stored fact did to its order. */
type Settled = { order: Order; changed: boolean };

/** What lockAndStore found wrong with a fact's amount (the provider's amount or currency is not the order's). */
type Verdict = { amountRefused: boolean };

/**
 * Whether a fact's amount must be the order's: a payment (the order's own or a renewal's), not a reversal. Where it
 * is not, lockAndStore records the fact as refused (decision 250) and settling credits nothing.
 */
function claimsPayment(u: PaymentUpdate): boolean {
  return !u.reversal && (u.outcome === "paid" || Boolean(u.subscription?.renewalPeriod));
}

/**
 * What arrived is shown on the order whatever it settles (a short crypto payment credits nothing), and the provider's
 * payment id is kept the first time it is named (refunds and polling need it).
 */
function learnedFrom(order: Order, u: PaymentUpdate): OrderChanges {
  return {
    ...(u.received ? { received: u.received } : {}),
    ...(u.paymentRef && !order.providerPaymentRef ? { providerPaymentRef: u.paymentRef } : {}),
    ...(u.payerRef && !order.payerRef ? { payerRef: u.payerRef } : {}),
  };
}

/** Verified provider facts applied to orders, each exactly once. */
export function createPaymentUpdates(deps: {
  db: Db;
  log: Logger;
  credits: CreditsService;
  memberships: MembershipsService;
  reversals: OrderReversals;
  onPaid?: (tx: Tx, order: Order) => Promise<void>;
}) {
  const { db, log, credits, memberships, reversals } = deps;

  /** A renewal pays a later period of the plan this order started; checked like any payment before crediting. */
  async function renewal(
    tx: Tx,
    provider: string,
    order: Order,
    u: PaymentUpdate,
    sub: SubscriptionFacts & { renewalPeriod: string },
    v: Verdict,
  ): Promise<boolean> {
    if (v.amountRefused) {
      log.error({ provider, orderNo: order.orderNo, paid: u.amountMinor, currency: u.currency }, "renewal amount does not match the plan; not credited");
      return false;
    }
    return memberships.renewed(tx, order, provider, sub);
  }

  /** The order is paid: its credits (and any bonus) are granted with the status change, unless something is wrong. */
  async function paid(tx: Tx, provider: string, order: Order, u: PaymentUpdate, learned: OrderChanges, ownerBanned: boolean, v: Verdict): Promise<Settled> {
    if (v.amountRefused) {
      log.error({ provider, orderNo: order.orderNo, paid: u.amountMinor, currency: u.currency }, "paid amount does not match the order; not credited");
      return { order: await changeOrder(tx, order.id, { ...learned, failureReason: "amount_mismatch" }), changed: false };
    }
    if (ownerBanned) {
      // the money came in, but a banned account gets nothing: the caller returns it through the provider
      log.warn({ provider, orderNo: order.orderNo, userId: order.userId }, "order paid after its account was banned; not credited");
      return { order: await changeOrder(tx, order.id, { ...learned, status: "paid", paidNow: true, failureReason: BANNED_AT_PAYMENT }), changed: true };
    }
    await credits.grant(
      { userId: order.userId, amount: order.credits, reason: "purchase", reference: `order:${order.orderNo}`, idempotencyKey: `order:${order.id}:paid` },
      tx,
    );
    if (order.bonusCredits > 0) {
      await credits.grant(
        {
          userId: order.userId,
          amount: order.bonusCredits,
          reason: "crypto_bonus",
          reference: `order:${order.orderNo}`,
          idempotencyKey: `order:${order.id}:bonus`,
        },
        tx,
      );
    }
    const paidOrder = await changeOrder(tx, order.id, { ...learned, status: "paid", paidNow: true, failureReason: null });
    if (u.subscription) await memberships.started(tx, paidOrder, provider, u.subscription);
    await deps.onPaid?.(tx, paidOrder);
    return { order: paidOrder, changed: true };
  }

  /** What a newly stored fact does to its (locked) order. */
  async function settle(tx: Tx, provider: string, order: Order, u: PaymentUpdate, ownerBanned: boolean, v: Verdict): Promise<Settled> {
    const sub = u.subscription;
    // PayPal names each charge of a subscription (its sale), not the period: the first sale is the order's own payment.
    const ordersOwnCharge = u.paymentRef !== undefined && (order.providerPaymentRef ?? u.paymentRef) === u.paymentRef;
    const renewalPeriod = sub?.renewalPeriod && !ordersOwnCharge ? sub.renewalPeriod : undefined;
    const next = u.outcome && !u.reversal && !renewalPeriod ? nextStatus(order.status, u.outcome) : null;
    // What was learned is written with the status change when there is one (one statement fewer), else on its own now.
    const learned = learnedFrom(order, u);
    const current = Object.keys(learned).length && !next ? await changeOrder(tx, order.id, learned) : order;
    if (u.reversal && sub && renewalPeriod)
      return { order: current, changed: await reversals.renewalReversed(tx, provider, current, sub, renewalPeriod, u.reversal) };
    if (u.reversal) return reversals.reversed(tx, provider, current, u.reversal);
    if (sub && renewalPeriod) return { order: current, changed: await renewal(tx, provider, current, u, { ...sub, renewalPeriod }, v) };
    if (sub?.state) await memberships.stateChanged(tx, current, provider, sub);
    if (!next) return { order: current, changed: false };
    if (next === "paid") return paid(tx, provider, current, u, learned, ownerBanned, v);
    return { order: await changeOrder(tx, current.id, { ...learned, status: next, failureReason: u.failureReason ?? null }), changed: true };
  }

  return {
    /**
     * Applies one verified provider update exactly once. The payment_events row (unique per provider and event id),
     * the order's status change and the credit grant commit together or not at all; the order row is locked first
     * so concurrent deliveries queue behind each other and find the event already stored.
     */
    async applyUpdate(provider: string, u: PaymentUpdate): Promise<AppliedUpdate> {
      // Providers redeliver: an event already stored needs no transaction and no lock (one indexed read). The
      // insert below stays the gate for a first delivery racing its twin.
      if (await storedEvent.first(db, { provider, eventId: u.eventId })) return { duplicate: true, order: null, changed: false };
      return db.$transaction(async (tx) => {
        const [{ stored, owner_banned: ownerBanned, conflict, amount_refused: amountRefused, ...row }] = await lockAndStore.rows(tx, {
          provider,
          fact: u,
          checksAmount: claimsPayment(u),
        });
        const order = orderOfMaybeRow(row);
        if (!stored) return { duplicate: true, order, changed: false };
        if (conflict) {
          // signed, but its identifiers name two orders (or not the one named): recorded as refused, applied to none
          log.error(
            { provider, eventId: u.eventId, orderNo: u.orderNo, ref: u.providerRef, paymentRef: u.paymentRef },
            "payment notification names conflicting orders; refused",
          );
          return { duplicate: false, order: null, changed: false };
        }
        if (!order) {
          if (u.outcome) log.warn({ provider, eventId: u.eventId, orderNo: u.orderNo, ref: u.providerRef }, "payment notification for an unknown order");
          return { duplicate: false, order: null, changed: false };
        }
        return { duplicate: false, ...(await settle(tx, provider, order, u, ownerBanned === true, { amountRefused })) };
      });
    },
  };
}
