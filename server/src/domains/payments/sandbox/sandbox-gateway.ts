import crypto from "node:crypto";
import type { Logger } from "pino";
import type { Config } from "../../../config.ts";
import type { Db } from "../../../db/client.ts";
import type { SandboxSession, SandboxSessionStatus, SandboxSubscription } from "../../../db/generated/client.ts";
import { HttpError } from "../../../http/errors.ts";
import type { CheckoutRequest, CheckoutSession } from "../providers/provider.ts";
import { signNotification } from "../providers/signature.ts";

/** Notification types the sandbox sends, named like a card processor's. */
export const SANDBOX_EVENTS = {
  succeeded: "payment.succeeded",
  requiresAction: "payment.requires_action",
  failed: "payment.failed",
  /** a plan's subscription charged its next period */
  renewed: "subscription.renewed",
  /** a subscription will stop at its period's end, or runs on again */
  updated: "subscription.updated",
  /** a subscription stopped for good */
  ended: "subscription.deleted",
} as const;

/**
 * A plan's subscription on the sandbox's side: `active` charges each period; `cancel_at_period_end` stops at the
 * paid period's end (the member cancelled; resuming makes it active again); `ended` charges no more.
 */
export const SANDBOX_SUBSCRIPTION_STATUSES = ["active", "cancel_at_period_end", "ended"] as const;
export type SandboxSubscriptionStatus = (typeof SANDBOX_SUBSCRIPTION_STATUSES)[number];

export interface SandboxNotification {
  id: string;
  type: (typeof SANDBOX_EVENTS)[keyof typeof SANDBOX_EVENTS];
  created: number;
  data: {
    session_id: string;
    order_no: string;
    amount: number;
    currency: string;
    status: SandboxSessionStatus;
    /** set for a plan: its subscription, the period this event is about and when that period ends (Unix seconds) */
    subscription?: { id: string; status: SandboxSubscriptionStatus; period: number; current_period_end: number };
  };
}

/** What a notification says about a subscription: the row, and the period it names where not the row's own. */
export type SubscriptionNote = { row: SandboxSubscription; period?: number; periodEnd?: Date };

export type SandboxView = { state: "open" | "challenge"; session: SandboxSession } | { state: "closed" | "expired"; session: SandboxSession };

const DELIVERY_DELAYS_MS = [0, 250, 1000];
export const DAY_MS = 86_400_000;
const DELIVERY_TIMEOUT_MS = 10_000;

/**
 * Whether a URL names this machine only: `localhost` (and `*.localhost`, RFC 6761), 127.0.0.0/8 or ::1. Nobody else
 * reaches such an address, so a checkout served there gives nothing away.
 */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost") || host === "[::1]") return true;
  // WHATWG URL parsing turns every IPv4 spelling (127.1, 0x7f.1) into the dotted quad
  return /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * The sandbox checkout grants real credits for payments nobody makes, so by default it is on only where nobody else
 * can reach it (PUBLIC_URL on loopback: a local try-out with `npm start`) and in the tests; NODE_ENV=production keeps it
 * off even there. SANDBOX_PAY_ENABLED decides when set (docs/decisions/350).
 */
export function sandboxEnabled(config: Config): boolean {
  return config.SANDBOX_PAY_ENABLED ?? sandboxOnByDefault(config);
}

function sandboxOnByDefault(config: Config): boolean {
  return config.NODE_ENV === "test" || (config.NODE_ENV !== "production" && isLoopbackUrl(config.publicUrl));
}

/** The one start-up warning line when SANDBOX_PAY_ENABLED turns the free checkout on where it would be off. */
export function sandboxWarning(config: Config): string | undefined {
  if (!config.SANDBOX_PAY_ENABLED || sandboxOnByDefault(config)) return undefined;
  return `SANDBOX_PAY_ENABLED=true: the sandbox checkout grants real credits for free test payments to anyone who reaches ${config.publicUrl}`;
}

/**
 * The provider side of the sandbox: a hosted checkout that keeps its own sessions and, like a real card
 * processor, tells Reverie what happened by a signed HTTP notification to the public webhook address.
 * Reverie's order code never trusts it more than any other provider: it verifies the signature.
 */
export function createSandboxGateway(deps: { db: Db; config: Config; log: Logger }) {
  const { db, config, log } = deps;
  const notifyUrl = `${config.publicUrl}/api/pay/webhook/sandbox`;

  /** A renewal's event id names its period, so a resend is the same event (Reverie stores each event once). */
  async function deliver(session: SandboxSession, type: SandboxNotification["type"], sub?: SubscriptionNote, eventId?: string): Promise<boolean> {
    const subscription = sub && {
      id: sub.row.id,
      status: sub.row.status as SandboxSubscriptionStatus,
      period: sub.period ?? sub.row.period,
      current_period_end: Math.floor((sub.periodEnd ?? sub.row.currentPeriodEnd).getTime() / 1000),
    };
    const notification: SandboxNotification = {
      id: eventId ?? `sbevt_${crypto.randomBytes(12).toString("hex")}`,
      type,
      created: Math.floor(Date.now() / 1000),
      data: {
        session_id: session.id,
        order_no: session.orderNo,
        amount: session.amountMinor,
        currency: session.currency,
        status: session.status,
        ...(subscription ? { subscription } : {}),
      },
    };
    const body = JSON.stringify(notification);
    for (const delay of DELIVERY_DELAYS_MS) {
      if (delay) await new Promise((r) => setTimeout(r, delay));
      try {
        const res = await fetch(notifyUrl, {
          method: "POST",
          headers: { "content-type": "application/json", "sandbox-signature": signNotification(config.SANDBOX_WEBHOOK_SECRET, body) },
          body,
          signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
        });
        if (res.ok) return true;
        log.warn({ status: res.status, type, session: session.id }, "sandbox notification refused");
      } catch (err) {
        log.warn({ err, type, session: session.id }, "sandbox notification not delivered");
      }
    }
    return false;
  }

  /** Moves a session from one of `from` to `to` atomically; a second click or an expired session changes nothing. */
  async function transition(id: string, from: SandboxSessionStatus[], to: SandboxSessionStatus): Promise<SandboxSession> {
    const moved = await db.sandboxSession.updateMany({ where: { id, status: { in: from }, expiresAt: { gt: new Date() } }, data: { status: to } });
    if (moved.count === 0) throw HttpError.conflict("This checkout is closed");
    return db.sandboxSession.findUniqueOrThrow({ where: { id } });
  }

  /** A paid plan checkout starts its subscription, once (the transition to succeeded happens once per session). */
  async function subscribe(session: SandboxSession): Promise<SubscriptionNote | undefined> {
    if (!session.renewEveryDays) return undefined;
    const row = await db.sandboxSubscription.create({
      data: {
        id: `sbsub_${crypto.randomBytes(12).toString("hex")}`,
        sessionId: session.id,
        orderNo: session.orderNo,
        amountMinor: session.amountMinor,
        currency: session.currency,
        intervalDays: session.renewEveryDays,
        currentPeriodEnd: new Date(Date.now() + session.renewEveryDays * DAY_MS),
      },
    });
    return { row };
  }

  return {
    deliver,

    async openSession(req: CheckoutRequest): Promise<CheckoutSession> {
      const id = `sbx_${crypto.randomBytes(18).toString("base64url")}`;
      await db.sandboxSession.create({
        data: {
          id,
          orderNo: req.orderNo,
          amountMinor: req.amountMinor,
          currency: req.currency,
          description: req.description,
          returnUrl: req.returnUrl,
          expiresAt: req.expiresAt,
          renewEveryDays: req.renewEveryDays ?? null,
        },
      });
      return { providerRef: id, payUrl: `${config.publicUrl}/sandbox-pay/${id}` };
    },

    /** A session, with the subscription it started where it was a paid plan. */
    async find(id: string): Promise<(SandboxSession & { subscription: SandboxSubscription | null }) | null> {
      return db.sandboxSession.findUnique({ where: { id }, include: { subscription: true } });
    },

    async view(id: string): Promise<SandboxView> {
      const session = await db.sandboxSession.findUnique({ where: { id } });
      if (!session) throw HttpError.notFound();
      if (session.status === "open" || session.status === "challenge") {
        return session.expiresAt > new Date() ? { state: session.status, session } : { state: "expired", session };
      }
      return { state: "closed", session };
    },

    /** Pay: the card is charged at once. Returns where the browser goes next. */
    async pay(id: string): Promise<string> {
      const session = await transition(id, ["open"], "succeeded");
      await deliver(session, SANDBOX_EVENTS.succeeded, await subscribe(session));
      return session.returnUrl;
    },

    /** Pay with 3-D Secure: the bank asks for a challenge first; the order waits in 3ds_pending. */
    async startChallenge(id: string): Promise<void> {
      const session = await transition(id, ["open"], "challenge");
      await deliver(session, SANDBOX_EVENTS.requiresAction);
    },

    async finishChallenge(id: string, passed: boolean): Promise<string> {
      const session = await transition(id, ["challenge"], passed ? "succeeded" : "declined");
      await deliver(session, passed ? SANDBOX_EVENTS.succeeded : SANDBOX_EVENTS.failed, passed ? await subscribe(session) : undefined);
      return session.returnUrl;
    },

    async decline(id: string): Promise<string> {
      const session = await transition(id, ["open", "challenge"], "declined");
      await deliver(session, SANDBOX_EVENTS.failed);
      return session.returnUrl;
    },

    async refund(id: string): Promise<void> {
      const moved = await db.sandboxSession.updateMany({ where: { id, status: "succeeded" }, data: { status: "refunded" } });
      if (moved.count === 0) throw HttpError.conflict("Only a completed payment can be refunded");
    },
  };
}

export type SandboxGateway = ReturnType<typeof createSandboxGateway>;
