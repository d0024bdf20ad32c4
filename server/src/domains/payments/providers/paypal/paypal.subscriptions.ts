import { decimalToMinor, minorToDecimal } from "../../../products/money.ts";
import { ProviderUnavailable, type CheckoutRequest, type CheckoutSession, type PaymentUpdate } from "../provider.ts";
import type { PaypalApi } from "./paypal.api.ts";
import type { Sale, SaleRefund, Subscription } from "./paypal.types.ts";
import { date, moneyFacts } from "./paypal.updates.ts";

/** How many failed charges of a period PayPal tries before it suspends the subscription (plan payment_preferences). */
const PAYMENT_FAILURE_THRESHOLD = 3;

/** Plans sold as PayPal subscriptions (Subscriptions API v1, decision 209): created, polled, refunded by sale, cancelled. */
export function createPaypalSubscriptions(api: PaypalApi) {
  /**
   * The billing plan for a price and period (a catalog product + a plan, created once per price, period and process;
   * PayPal-Request-Id makes a repeat of the same creation answer the same plan).
   */
  const plans = new Map<string, Promise<string>>();
  function planFor(req: CheckoutRequest, days: number): Promise<string> {
    const key = `${req.currency}-${req.amountMinor}-${days}d`;
    let plan = plans.get(key);
    if (!plan) {
      plan = createPlan(req, days, key);
      // a failed creation is not remembered: the next checkout tries again
      plan.catch(() => plans.delete(key));
      plans.set(key, plan);
    }
    return plan;
  }

  async function createPlan(req: CheckoutRequest, days: number, key: string): Promise<string> {
    const product = await api<{ id?: string }>(
      "POST",
      "/v1/catalogs/products",
      { name: req.description.slice(0, 127), type: "SERVICE", category: "SOFTWARE" },
      { "paypal-request-id": `product-${key}` },
    );
    if (product.status >= 400 || !product.data.id) throw new ProviderUnavailable(`paypal catalog product answered ${product.status}`);
    const created = await api<{ id?: string; status?: string }>(
      "POST",
      "/v1/billing/plans",
      {
        product_id: product.data.id,
        name: req.description.slice(0, 127),
        status: "ACTIVE",
        billing_cycles: [
          {
            frequency: { interval_unit: "DAY", interval_count: days },
            tenure_type: "REGULAR",
            sequence: 1,
            total_cycles: 0,
            pricing_scheme: { fixed_price: { value: minorToDecimal(req.amountMinor, req.currency), currency_code: req.currency } },
          },
        ],
        payment_preferences: { auto_bill_outstanding: true, setup_fee_failure_action: "CANCEL", payment_failure_threshold: PAYMENT_FAILURE_THRESHOLD },
      },
      { "paypal-request-id": `plan-${key}` },
    );
    if (created.status >= 400 || !created.data.id) throw new ProviderUnavailable(`paypal billing plan answered ${created.status}`);
    return created.data.id;
  }

  /** A plan sold as a PayPal subscription: its first charge pays the order, later ones renew (decision 209). */
  async function subscribe(req: CheckoutRequest, days: number): Promise<CheckoutSession> {
    const planId = await planFor(req, days);
    const { status, data } = await api<Subscription>(
      "POST",
      "/v1/billing/subscriptions",
      {
        plan_id: planId,
        custom_id: req.orderNo,
        application_context: { return_url: req.returnUrl, cancel_url: req.cancelUrl, user_action: "SUBSCRIBE_NOW", shipping_preference: "NO_SHIPPING" },
      },
      { "paypal-request-id": `subscribe-${req.orderNo}` },
    );
    const approve = data.links?.find((l) => l.rel === "approve")?.href;
    if (status >= 400 || !data.id || !approve) throw new ProviderUnavailable(`paypal subscription create answered ${status}`);
    return { providerRef: data.id, payUrl: approve };
  }

  /**
   * A refunded or reversed sale. Its resource names the sale only, so the sale is looked up (`GET /v1/payments/sale/{id}`,
   * with our credentials) for the subscription it charged: the first sale is the plan order's payment, any other a
   * renewal (orders tells them apart by the order's payment id). PAYMENT.SALE.REVERSED carries a negative amount.
   */
  async function saleReversal(kind: "refund" | "chargeback", refund: SaleRefund): Promise<Partial<PaymentUpdate>> {
    if (!refund.sale_id) return {};
    const { status, data } = await api<Sale>("GET", `/v1/payments/sale/${encodeURIComponent(refund.sale_id)}`);
    if (status === 404) return { paymentRef: refund.sale_id };
    if (status >= 400) throw new ProviderUnavailable(`paypal sale lookup answered ${status}`);
    const amount = refund.amount ? decimalToMinor(refund.amount.total.replace(/^-/, ""), refund.amount.currency) : undefined;
    const total = refund.total_refunded_amount ? decimalToMinor(refund.total_refunded_amount.value, refund.total_refunded_amount.currency) : undefined;
    return {
      paymentRef: refund.sale_id,
      ...(data.billing_agreement_id
        ? { providerRef: data.billing_agreement_id, subscription: { ref: data.billing_agreement_id, renewalPeriod: refund.sale_id } }
        : {}),
      reversal: {
        kind,
        ...(amount !== undefined ? { amountMinor: amount, currency: refund.amount!.currency } : {}),
        ...(total !== undefined ? { totalMinor: total } : {}),
      },
    };
  }

  /** The full refund of a subscription's sale (v1: an empty body refunds all of it); already refunded counts as done. */
  async function refundSale(saleId: string | null | undefined, orderNo: string): Promise<void> {
    // the order was paid by polling and the first sale's event has not come yet: PayPal's dashboard refunds it
    if (!saleId) throw new ProviderUnavailable("the sale that paid this plan order is not known yet");
    const { status, data } = await api<{ name?: string }>(
      "POST",
      `/v1/payments/sale/${encodeURIComponent(saleId)}/refund`,
      {},
      { "paypal-request-id": `refund-${orderNo}` },
    );
    if (status === 400 && data.name === "TRANSACTION_ALREADY_REFUNDED") return;
    if (status >= 400) throw new ProviderUnavailable(`paypal sale refund answered ${status}`);
  }

  /** Polling a plan order: the subscription is active and its first period was charged. */
  async function querySubscription(id: string): Promise<PaymentUpdate | null> {
    const { status, data } = await api<Subscription>("GET", `/v1/billing/subscriptions/${encodeURIComponent(id)}`);
    if (status >= 400) throw new ProviderUnavailable(`paypal subscription lookup answered ${status}`);
    const paid = data.billing_info?.last_payment?.amount;
    if (data.status !== "ACTIVE" || !paid) return null;
    return {
      eventId: `query:${id}:ACTIVE`,
      type: "query.subscription.active",
      outcome: "paid",
      providerRef: id,
      orderNo: data.custom_id,
      ...moneyFacts(paid),
      subscription: { ref: id, currentPeriodEnd: date(data.billing_info?.next_billing_time) },
      payload: data,
    };
  }

  /** Cancels the subscription on PayPal; one already cancelled counts as done. */
  async function cancel(subscriptionRef: string): Promise<void> {
    const { status, data } = await api<{ details?: { issue?: string }[] }>("POST", `/v1/billing/subscriptions/${encodeURIComponent(subscriptionRef)}/cancel`, {
      reason: "Cancelled by the member in the app",
    });
    // already cancelled (a double click, or the member cancelled on PayPal too): the outcome wanted
    if (status === 422 && data.details?.some((d) => d.issue === "SUBSCRIPTION_STATUS_INVALID")) return;
    if (status >= 400) throw new ProviderUnavailable(`paypal subscription cancel answered ${status}`);
  }

  return { subscribe, saleReversal, refundSale, querySubscription, cancel };
}
