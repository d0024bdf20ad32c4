import type { Currency } from "../../../contract/currencies.ts";
import crypto from "node:crypto";
import type { Logger } from "pino";
import type { Config } from "../../../config.ts";
import { PAGSMILE_LOCAL_METHODS, type PaymentMethod } from "../../../contract/payments.ts";
import { decimalToMinor, minorToDecimal } from "../../products/money.ts";
import { InvalidNotification, ProviderUnavailable, headerValue, type PaymentOutcome, type PaymentProvider, type PaymentUpdate } from "./provider.ts";
import { SIGNATURE_TOLERANCE_SECONDS } from "./signature.ts";

const LIVE_API = "https://gateway.pagsmile.com";
const TEST_API = "https://gateway-test.pagsmile.com";
/** order_currency: US dollars on the hosted checkout, roubles for the Russian local methods (SBP, SberPay, T-Pay). */
const PAGSMILE_CURRENCIES: readonly Currency[] = ["USD", "RUB"];
const REQUEST_TIMEOUT_MS = 20_000;
/** Pagsmile's "10000 Success" answer code; anything else is a refusal. */
const SUCCESS_CODE = "10000";
/** What Pagsmile expects back from a notification it delivered; anything else makes it deliver again. */
export const PAGSMILE_NOTIFY_REPLY = "success";

/** Pagsmile trade statuses (payin-status) and what they mean for an order; refunds and chargebacks are reversals below. */
const OUTCOME: Record<string, PaymentOutcome> = {
  SUCCESS: "paid",
  // The buyer submitted the payment and the bank is confirming it, or Pagsmile's risk check holds it: keep polling.
  PROCESSING: "3ds_pending",
  RISK_CONTROLLING: "3ds_pending",
  REFUSED: "failed",
  CANCEL: "failed",
  EXPIRED: "failed",
};

/**
 * Money returned of a paid trade (docs.pagsmile.com "Notification" events): REFUNDED (a refund, named by out_request_no)
 * and CHARGEBACK. DISPUTE only opens a case and CHARGEBACK_REVERSED gives money back to the merchant: both are stored
 * for staff and move no credits (decision 208).
 */
const REVERSAL: Record<string, "refund" | "chargeback"> = { REFUNDED: "refund", CHARGEBACK: "chargeback" };

interface TradeAnswer {
  code?: string;
  msg?: string;
  sub_code?: string;
  trade_no?: string;
  out_trade_no?: string;
  web_url?: string;
  trade_status?: string;
  order_amount?: string | number;
  order_currency?: string;
}

interface Notification {
  trade_no?: string;
  out_trade_no?: string;
  out_request_no?: string;
  app_id?: string;
  trade_status?: string;
  amount?: string | number;
  currency?: string;
  method?: string;
  timestamp?: string | number;
  /** Recurring payments: which period this charge pays (1 for the first). */
  period?: number;
}

/** `sbp=X,sberpay=Y` from PAGSMILE_METHOD_CODES. */
function methodCodes(config: Config): Partial<Record<PaymentMethod, string>> {
  const codes: Partial<Record<PaymentMethod, string>> = {};
  for (const pair of (config.PAGSMILE_METHOD_CODES ?? "").split(",")) {
    const [name, code] = pair.split("=").map((s) => s.trim());
    if (name && code) codes[name as PaymentMethod] = code;
  }
  return codes;
}

/** Pagsmile's request timestamp: "yyyy-MM-dd HH:mm:ss" (UTC). */
function stamp(d = new Date()): string {
  return d.toISOString().slice(0, 19).replace("T", " ");
}

/** Pagsmile amounts arrive as strings or numbers; compare them in minor units. */
function minorOf(amount: string | number | undefined, currency: string | undefined): number | undefined {
  if (amount === undefined || !currency) return undefined;
  const text = typeof amount === "number" ? amount.toFixed(2) : amount;
  // "12.00" for a zero-decimal currency still means 12.
  return decimalToMinor(text.replace(/\.0+$/, ""), currency);
}

/** `t=<unix>,v2=<hex>` from the Pagsmile-Signature header. */
function parseSignatureHeader(header: string | undefined): { t: number; v2: string[] } | null {
  if (!header) return null;
  const parts = header.split(",").map((p) => p.trim().split("="));
  const t = Number(parts.find(([k]) => k === "t")?.[1]);
  const v2 = parts.filter(([k, v]) => k === "v2" && v).map(([, v]) => v);
  return Number.isInteger(t) && v2.length ? { t, v2 } : null;
}

/**
 * Pagsmile payin (docs.pagsmile.com): the hosted checkout (`/trade/create`, optionally narrowed to one local method),
 * recurring card payments (`/trade/recurring`), status query (`/trade/query`) and refunds (`/trade/refund`), all with
 * HTTP Basic app_id:security_key. Notifications carry `Pagsmile-Signature: t=<unix>,v2=<HMAC-SHA256(key, raw body)>`.
 */
export function createPagsmileProvider(config: Config, log: Logger): PaymentProvider {
  const base = (config.PAGSMILE_API_BASE ?? (config.NODE_ENV === "production" ? LIVE_API : TEST_API)).replace(/\/$/, "");
  const codes = methodCodes(config);

  async function call(path: string, body: Record<string, unknown>): Promise<TradeAnswer> {
    const auth = Buffer.from(`${config.PAGSMILE_APP_ID}:${config.PAGSMILE_SECURITY_KEY}`).toString("base64");
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method: "POST",
        headers: { authorization: `Basic ${auth}`, "content-type": "application/json; charset=UTF-8" },
        body: JSON.stringify({ app_id: config.PAGSMILE_APP_ID, timestamp: stamp(), ...body }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (err) {
      log.warn({ err, path }, "pagsmile unreachable");
      throw new ProviderUnavailable(`pagsmile ${path} unreachable`);
    }
    const answer = (await res.json().catch(() => ({}))) as TradeAnswer;
    if (!res.ok || answer.code !== SUCCESS_CODE) {
      log.warn({ path, status: res.status, code: answer.code, sub: answer.sub_code }, "pagsmile refused a request");
      throw new ProviderUnavailable(`pagsmile ${path} answered ${res.status} ${answer.code ?? ""} ${answer.sub_code ?? ""}`);
    }
    return answer;
  }

  async function query(tradeNo: string): Promise<TradeAnswer> {
    return call("/trade/query", { trade_no: tradeNo });
  }

  return {
    name: "pagsmile",
    available: () => Boolean(config.PAGSMILE_APP_ID && config.PAGSMILE_SECURITY_KEY),
    methods: () => ["checkout", "recurring", ...PAGSMILE_LOCAL_METHODS.filter((m) => codes[m])],
    currencies: () => PAGSMILE_CURRENCIES,

    async createCheckout(req) {
      const minutes = Math.max(1, Math.floor((req.expiresAt.getTime() - Date.now()) / 60_000));
      const common = {
        out_trade_no: req.orderNo,
        order_currency: req.currency,
        order_amount: minorToDecimal(req.amountMinor, req.currency),
        subject: req.description.slice(0, 128),
        content: req.description.slice(0, 255),
        trade_type: "WEB",
        version: "2.0",
        timeout_express: `${minutes}m`,
        notify_url: req.notifyUrl,
        return_url: req.returnUrl,
        buyer_id: req.buyerId,
      };
      let answer: TradeAnswer;
      if (req.method === "recurring") {
        if (!req.renewEveryDays) throw new ProviderUnavailable("pagsmile recurring needs a plan's period");
        answer = await call("/trade/recurring", { ...common, method: "CreditCard", interval: `${req.renewEveryDays}D` });
      } else {
        const code = req.method === "checkout" ? undefined : codes[req.method];
        if (req.method !== "checkout" && !code) throw new ProviderUnavailable(`pagsmile method ${req.method} has no code configured`);
        answer = await call("/trade/create", { ...common, ...(code ? { method: code } : {}) });
      }
      if (!answer.trade_no || !answer.web_url) throw new ProviderUnavailable("pagsmile answered without trade_no or web_url");
      // The documented way to send the buyer back: return_url appended to the checkout address.
      const payUrl = new URL(answer.web_url);
      payUrl.searchParams.set("return_url", req.returnUrl);
      return { providerRef: answer.trade_no, payUrl: payUrl.toString() };
    },

    async parseNotification(rawBody, headers): Promise<PaymentUpdate> {
      const key = config.PAGSMILE_SECURITY_KEY;
      if (!key) throw new InvalidNotification("no Pagsmile key configured");
      const sig = parseSignatureHeader(headerValue(headers, "pagsmile-signature"));
      if (!sig) throw new InvalidNotification("Pagsmile-Signature missing or malformed");
      const expected = crypto.createHmac("sha256", key).update(rawBody).digest();
      const genuine = sig.v2.some((v) => {
        const given = Buffer.from(v, "hex");
        return given.length === expected.length && crypto.timingSafeEqual(given, expected);
      });
      if (!genuine) throw new InvalidNotification("pagsmile signature does not match");
      let n: Notification;
      try {
        n = JSON.parse(rawBody.toString("utf8")) as Notification;
      } catch {
        throw new InvalidNotification("pagsmile notification is not JSON");
      }
      // The header's t is not covered by the HMAC; the body's timestamp is. Both must agree and be recent.
      const signedAt = Number(n.timestamp);
      if (!Number.isInteger(signedAt) || signedAt !== sig.t) throw new InvalidNotification("pagsmile timestamp missing or not the signed one");
      if (Math.abs(Date.now() / 1000 - signedAt) > SIGNATURE_TOLERANCE_SECONDS) throw new InvalidNotification("pagsmile notification is stale");
      if (n.app_id !== config.PAGSMILE_APP_ID) throw new InvalidNotification("pagsmile notification is for another app");
      if (!n.trade_no || !n.trade_status) throw new InvalidNotification("pagsmile notification lacks trade_no or trade_status");
      const status = OUTCOME[n.trade_status] ?? null;
      // A recurring trade's later periods pay the plan again (a renewal); its first period pays the order.
      const period = Number.isInteger(n.period) ? (n.period as number) : undefined;
      const renewal = period !== undefined && period > 1;
      const outcome = renewal ? null : status;
      // a later period's refund or chargeback returns a renewal, not the order: stored for staff (decision 208)
      const reversal = renewal ? undefined : REVERSAL[n.trade_status];
      return {
        // The notification's amount is the refund's own for a refund order (out_request_no), the trade's otherwise.
        ...(reversal ? { reversal: { kind: reversal, amountMinor: minorOf(n.amount, n.currency), currency: n.currency } } : {}),
        ...(period !== undefined && status === "paid" ? { subscription: { ref: n.trade_no, ...(renewal ? { renewalPeriod: String(period) } : {}) } } : {}),
        // Pagsmile has no event id: a trade's status (per recurring period and refund request) happens once.
        eventId: [n.trade_no, n.trade_status, n.period ?? "", n.out_request_no ?? ""].join(":"),
        type: `trade.${n.trade_status.toLowerCase()}`,
        outcome,
        providerRef: n.trade_no,
        orderNo: n.out_trade_no,
        amountMinor: minorOf(n.amount, n.currency),
        currency: n.currency,
        failureReason: status === "failed" ? n.trade_status.toLowerCase() : undefined,
        payload: n,
      };
    },

    async queryPayment(providerRef): Promise<PaymentUpdate | null> {
      const t = await query(providerRef);
      const outcome = t.trade_status ? OUTCOME[t.trade_status] : undefined;
      if (!outcome || !t.trade_status) return null;
      return {
        eventId: `query:${providerRef}:${t.trade_status}`,
        type: `query.${t.trade_status.toLowerCase()}`,
        outcome,
        providerRef,
        orderNo: t.out_trade_no,
        amountMinor: minorOf(t.order_amount, t.order_currency),
        currency: t.order_currency,
        failureReason: outcome === "failed" ? t.trade_status.toLowerCase() : undefined,
        payload: t,
      };
    },

    renews: (method) => method === "recurring",

    async cancelSubscription(_tradeNo, orderNo) {
      await call("/trade/recurring/cancel", { version: "2.0", out_trade_no: orderNo });
    },

    async refund(providerRef, orderNo) {
      const t = await query(providerRef);
      if (t.trade_status !== "SUCCESS" || t.order_amount === undefined || !t.order_currency)
        throw new ProviderUnavailable(`pagsmile trade is ${t.trade_status ?? "unknown"}, not refundable`);
      // out_request_no (max 16 chars) names the refund, so asking twice for the same order is one refund.
      const requestNo = crypto.createHash("sha256").update(`refund:${orderNo}`).digest("hex").slice(0, 16);
      await call("/trade/refund", {
        trade_no: providerRef,
        out_request_no: requestNo,
        refund_amount: String(t.order_amount),
        refund_currency: t.order_currency,
        refund_reason: "Refund by support",
      });
    },
  };
}
