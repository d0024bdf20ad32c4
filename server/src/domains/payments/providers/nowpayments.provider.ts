import type { Currency } from "../../../contract/currencies.ts";
import crypto from "node:crypto";
import type { Logger } from "pino";
import type { Config } from "../../../config.ts";
import { decimalToMinor, minorToDecimal } from "../../products/money.ts";
import { InvalidNotification, ProviderUnavailable, headerValue, type PaymentOutcome, type PaymentProvider, type PaymentUpdate } from "./provider.ts";
import { SIGNATURE_TOLERANCE_SECONDS } from "./signature.ts";

const LIVE_API = "https://api.nowpayments.io";
/** The invoice's price_currency: NOWPayments prices in US dollars (its base) and euros; the buyer pays in the coin. */
const NOWPAYMENTS_CURRENCIES: readonly Currency[] = ["USD", "EUR"];
const REQUEST_TIMEOUT_MS = 20_000;

/**
 * NOWPayments payment statuses. Only `finished` means the coins arrived in full; the network is still confirming
 * in the middle ones (keep polling); `partially_paid` leaves the order open and shows what arrived.
 */
const OUTCOME: Record<string, PaymentOutcome | null> = {
  waiting: null,
  confirming: "3ds_pending",
  confirmed: "3ds_pending",
  sending: "3ds_pending",
  partially_paid: null,
  finished: "paid",
  failed: "failed",
  expired: "failed",
  refunded: null,
};

/** An IPN's body, and also what `GET /v1/payment/{payment_id}` answers (the same payment object). */
interface Ipn {
  payment_id?: number | string;
  invoice_id?: number | string | null;
  payment_status?: string;
  price_amount?: number | string;
  price_currency?: string;
  pay_amount?: number | string;
  actually_paid?: number | string;
  pay_currency?: string;
  order_id?: string;
  /** When the payment last changed: milliseconds since the epoch in IPNs (covered by the signature), an ISO date in the status call. */
  updated_at?: number | string;
}

/** JSON with every object's keys in alphabetical order: the string NOWPayments signs. */
export function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

function num(v: number | string | undefined): number {
  return typeof v === "number" ? v : Number(v);
}

function millis(v: number | string | undefined): number {
  return typeof v === "number" ? v : /^\d+$/.test(v ?? "") ? Number(v) : Date.parse(v ?? "");
}

/**
 * What a NOWPayments payment object says about our order. The event id is the payment's state (status and how much
 * arrived), the same whether an IPN or the status call reported it, so a late IPN of a state polling already applied
 * is a duplicate.
 */
function paymentUpdate(n: Ipn, via: "ipn" | "query"): PaymentUpdate {
  const paid = num(n.actually_paid);
  const due = num(n.pay_amount);
  let outcome = OUTCOME[n.payment_status!];
  // Credited only when everything due arrived; an over-payment is a full payment (the order shows the excess).
  if (outcome === "paid" && !(paid >= due)) outcome = null;
  const priceCurrency = n.price_currency?.toUpperCase();
  const price = n.price_amount === undefined || !priceCurrency ? undefined : decimalToMinor(String(n.price_amount), priceCurrency);
  return {
    eventId: `${n.payment_id}:${n.payment_status}:${n.actually_paid ?? 0}`,
    type: `${via === "ipn" ? "payment" : "query"}.${n.payment_status}`,
    outcome,
    providerRef: n.invoice_id === undefined || n.invoice_id === null ? undefined : String(n.invoice_id),
    // the status call needs it, and only IPNs carry it: the order keeps it from the first one (decision 111)
    paymentRef: String(n.payment_id),
    orderNo: n.order_id,
    amountMinor: price,
    currency: priceCurrency,
    failureReason: outcome === "failed" ? n.payment_status : undefined,
    received: Number.isFinite(paid) && n.pay_currency ? { amount: String(n.actually_paid), currency: n.pay_currency.toUpperCase() } : undefined,
    payload: n,
  };
}

/**
 * USDT through NOWPayments (documented at documenter.getpostman.com/view/7907941/S1a32n38): a hosted invoice
 * (`POST /v1/invoice`, x-api-key) paid in NOWPAYMENTS_PAY_CURRENCY, and instant payment notifications signed with
 * `x-nowpayments-sig` = hex HMAC-SHA512(IPN secret, key-sorted JSON of the body).
 */
export function createNowpaymentsProvider(config: Config, log: Logger): PaymentProvider {
  const base = (config.NOWPAYMENTS_API_BASE ?? LIVE_API).replace(/\/$/, "");

  return {
    name: "usdt",
    available: () => Boolean(config.NOWPAYMENTS_API_KEY && config.NOWPAYMENTS_IPN_SECRET),
    methods: () => ["checkout"],
    currencies: () => NOWPAYMENTS_CURRENCIES,

    async createCheckout(req) {
      let res: Response;
      try {
        res = await fetch(`${base}/v1/invoice`, {
          method: "POST",
          headers: { "x-api-key": config.NOWPAYMENTS_API_KEY ?? "", "content-type": "application/json" },
          body: JSON.stringify({
            price_amount: Number(minorToDecimal(req.amountMinor, req.currency)),
            price_currency: req.currency.toLowerCase(),
            pay_currency: config.NOWPAYMENTS_PAY_CURRENCY,
            order_id: req.orderNo,
            order_description: req.description.slice(0, 255),
            ipn_callback_url: req.notifyUrl,
            success_url: req.returnUrl,
            cancel_url: req.cancelUrl,
          }),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
      } catch (err) {
        log.warn({ err }, "nowpayments unreachable");
        throw new ProviderUnavailable("nowpayments unreachable");
      }
      const data = (await res.json().catch(() => ({}))) as { id?: string | number; invoice_url?: string; message?: string };
      if (!res.ok || !data.id || !data.invoice_url) {
        log.warn({ status: res.status, message: data.message }, "nowpayments refused the invoice");
        throw new ProviderUnavailable(`nowpayments invoice answered ${res.status}`);
      }
      return { providerRef: String(data.id), payUrl: data.invoice_url };
    },

    async parseNotification(rawBody, headers): Promise<PaymentUpdate> {
      const secret = config.NOWPAYMENTS_IPN_SECRET;
      if (!secret) throw new InvalidNotification("no NOWPayments IPN secret configured");
      let n: Ipn;
      try {
        n = JSON.parse(rawBody.toString("utf8")) as Ipn;
      } catch {
        throw new InvalidNotification("nowpayments notification is not JSON");
      }
      if (!n || typeof n !== "object" || Array.isArray(n)) throw new InvalidNotification("nowpayments notification is not an object");
      const given = Buffer.from(headerValue(headers, "x-nowpayments-sig") ?? "", "hex");
      const expected = crypto.createHmac("sha512", secret).update(sortedJson(n)).digest();
      if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) throw new InvalidNotification("nowpayments signature does not match");
      // The IPN has no signed delivery time; updated_at (signed) is when the payment last changed.
      const changedAt = millis(n.updated_at);
      if (!Number.isFinite(changedAt) || Math.abs(Date.now() - changedAt) > SIGNATURE_TOLERANCE_SECONDS * 1000)
        throw new InvalidNotification("nowpayments notification is stale");
      if (n.payment_id === undefined || !n.payment_status || !(n.payment_status in OUTCOME))
        throw new InvalidNotification("nowpayments notification lacks payment_id or a known payment_status");
      return paymentUpdate(n, "ipn");
    },

    /**
     * "Get payment status" (`GET /v1/payment/{payment_id}`, x-api-key). It needs the payment id, which NOWPayments
     * creates when the buyer picks a coin on the invoice page and which only IPNs carry: until the first IPN there is
     * nothing to ask, and the buyer keeps polling.
     */
    async queryPayment(_invoiceId, paymentId): Promise<PaymentUpdate | null> {
      if (!paymentId) return null;
      let res: Response;
      try {
        res = await fetch(`${base}/v1/payment/${encodeURIComponent(paymentId)}`, {
          headers: { "x-api-key": config.NOWPAYMENTS_API_KEY ?? "" },
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
      } catch (err) {
        log.warn({ err }, "nowpayments unreachable");
        throw new ProviderUnavailable("nowpayments unreachable");
      }
      const n = (await res.json().catch(() => ({}))) as Ipn & { message?: string };
      if (!res.ok) {
        log.warn({ status: res.status, message: n.message }, "nowpayments refused the payment status call");
        throw new ProviderUnavailable(`nowpayments payment status answered ${res.status}`);
      }
      if (String(n.payment_id) !== paymentId || !n.payment_status || !(n.payment_status in OUTCOME)) return null;
      return paymentUpdate(n, "query");
    },
  };
}
