import type { Logger } from "pino";
import type { Config } from "../../../config.ts";
import type { Db } from "../../../db/client.ts";
import type { SandboxSession, SandboxSubscription } from "../../../db/generated/client.ts";
import { HttpError } from "../../../http/errors.ts";
import { SubscriptionNotResumable } from "../providers/provider.ts";
import { DAY_MS, SANDBOX_EVENTS, sandboxEnabled, type SandboxGateway, type SandboxSubscriptionStatus } from "./sandbox-gateway.ts";

/** How many due subscriptions one sweep charges; the next sweep takes the rest. */
const SWEEP_BATCH = 100;

type Row = SandboxSubscription & { session: SandboxSession };

const renewalEventId = (row: SandboxSubscription, period: number) => `sbevt_${row.id}_period_${period}`;

/**
 * The sandbox's subscriptions, as a card processor runs them (docs/decisions/257): each period is charged when the
 * paid one ends (or at once from its test page), and Reverie hears of it by the same signed notification a real
 * provider sends, so a sandbox plan renews through the path every provider's renewals take. A notification Reverie
 * did not accept is sent again by the next sweep, with the same event id.
 */
export function createSandboxSubscriptions(deps: { db: Db; config: Config; log: Logger; gateway: SandboxGateway }) {
  const { db, log, gateway } = deps;

  async function find(id: string): Promise<Row> {
    const row = await db.sandboxSubscription.findUnique({ where: { id }, include: { session: true } });
    if (!row) throw HttpError.notFound();
    return row;
  }

  /** Sends each charged period Reverie has not accepted yet, oldest first; stops at the first refusal. */
  async function notifyRenewals(row: Row): Promise<void> {
    for (let period = row.notifiedPeriod + 1; period <= row.period; period++) {
      const periodEnd = new Date(row.currentPeriodEnd.getTime() - (row.period - period) * row.intervalDays * DAY_MS);
      const delivered = await gateway.deliver(row.session, SANDBOX_EVENTS.renewed, { row, period, periodEnd }, renewalEventId(row, period));
      if (!delivered) return;
      await db.sandboxSubscription.updateMany({ where: { id: row.id, notifiedPeriod: { lt: period } }, data: { notifiedPeriod: period } });
    }
  }

  /** Charges the next period of an active subscription, once: of two charges at once, one moves the period. */
  async function chargeNext(row: Row): Promise<boolean> {
    const moved = await db.sandboxSubscription.updateMany({
      where: { id: row.id, period: row.period, status: "active" },
      data: { period: row.period + 1, currentPeriodEnd: new Date(row.currentPeriodEnd.getTime() + row.intervalDays * DAY_MS) },
    });
    if (moved.count === 0) return false;
    await notifyRenewals(await find(row.id));
    return true;
  }

  /** Moves a subscription between states and tells Reverie; a second identical request changes nothing. */
  async function move(id: string, from: SandboxSubscriptionStatus[], to: SandboxSubscriptionStatus): Promise<void> {
    const moved = await db.sandboxSubscription.updateMany({ where: { id, status: { in: from } }, data: { status: to } });
    if (moved.count === 0) return;
    const row = await find(id);
    await gateway.deliver(row.session, to === "ended" ? SANDBOX_EVENTS.ended : SANDBOX_EVENTS.updated, { row });
  }

  return {
    find,

    /** The timer's sweep: due periods are charged, lapsed cancelled subscriptions end, unaccepted notifications resent. */
    async sweep(now = new Date()): Promise<void> {
      if (!sandboxEnabled(deps.config)) return;
      const due = await db.sandboxSubscription.findMany({
        where: { status: { in: ["active", "cancel_at_period_end"] }, currentPeriodEnd: { lte: now } },
        include: { session: true },
        take: SWEEP_BATCH,
      });
      for (const row of due) {
        if (row.status === "active") await chargeNext(row);
        else await move(row.id, ["cancel_at_period_end"], "ended");
      }
      const behind = await db.sandboxSubscription.findMany({
        where: { status: "active", notifiedPeriod: { lt: db.sandboxSubscription.fields.period } },
        include: { session: true },
        take: SWEEP_BATCH,
      });
      for (const row of behind) await notifyRenewals(row);
    },

    /** The test page's button: the next period is charged now instead of when this one ends. */
    async renewNow(id: string): Promise<void> {
      const row = await find(id);
      if (row.status !== "active" || !(await chargeNext(row))) throw HttpError.conflict("This subscription does not renew");
      log.info({ subscription: id, period: row.period + 1 }, "sandbox subscription charged early from its test page");
    },

    /** Stops the renewals: at the paid period's end, or at once (its plan order was refunded). */
    cancel: (id: string, now: boolean) => move(id, now ? ["active", "cancel_at_period_end"] : ["active"], now ? "ended" : "cancel_at_period_end"),

    /** Renews again, while the paid period has not run out. */
    async resume(id: string): Promise<void> {
      const row = await find(id);
      if (row.status === "active") return;
      if (row.status !== "cancel_at_period_end" || row.currentPeriodEnd <= new Date()) throw new SubscriptionNotResumable(row.id);
      await move(id, ["cancel_at_period_end"], "active");
    },
  };
}

export type SandboxSubscriptions = ReturnType<typeof createSandboxSubscriptions>;
