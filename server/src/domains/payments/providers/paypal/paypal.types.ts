/** The shapes of the PayPal REST resources Reverie reads (Orders v2, Payments, Subscriptions v1, webhooks). */

export interface Money {
  currency_code: string;
  value: string;
}
export interface Capture {
  id: string;
  status: string;
  amount?: Money;
  custom_id?: string;
  supplementary_data?: { related_ids?: { order_id?: string } };
}
export interface PaypalOrder {
  id: string;
  status: string;
  links?: { href: string; rel: string }[];
  purchase_units?: { reference_id?: string; custom_id?: string; payments?: { captures?: Capture[] } }[];
  /** the PayPal account that paid (Orders v2: `payer.payer_id`; `payment_source.paypal.account_id` in newer answers) */
  payer?: { payer_id?: string };
  payment_source?: { paypal?: { account_id?: string } };
}
/** A refund of a capture (v2 payments): also the resource of PAYMENT.CAPTURE.REVERSED. */
export interface Refund {
  id: string;
  status?: string;
  amount?: Money;
  custom_id?: string;
  seller_payable_breakdown?: { total_refunded_amount?: Money };
  /** `up` points at the refunded capture. */
  links?: { href: string; rel: string }[];
}
export interface WebhookEvent {
  id: string;
  event_type: string;
  /** When PayPal created the event: the date of a subscription's state change where the resource carries none. */
  create_time?: string;
  /**
   * A capture for PAYMENT.CAPTURE.COMPLETED/DENIED/DECLINED, a refund for REFUNDED/REVERSED, the PayPal order for
   * CHECKOUT.ORDER.*, a subscription for BILLING.SUBSCRIPTION.*, a sale for PAYMENT.SALE.*.
   */
  resource?: Capture & Partial<PaypalOrder> & Partial<Refund>;
}

/** A Subscriptions API subscription (v1/billing): the fields Reverie reads. */
export interface Subscription {
  id: string;
  status: string;
  status_update_time?: string;
  custom_id?: string;
  plan_id?: string;
  links?: { href: string; rel: string }[];
  billing_info?: { last_payment?: { amount?: Money; time?: string }; next_billing_time?: string; failed_payments_count?: number };
}
/** A v1 sale: what PAYMENT.SALE.COMPLETED carries for each charge of a subscription. */
export interface Sale {
  id: string;
  state?: string;
  amount?: { total: string; currency: string };
  billing_agreement_id?: string;
}
/** A v1 refund of a sale: what PAYMENT.SALE.REFUNDED and PAYMENT.SALE.REVERSED carry (the sale by id only). */
export interface SaleRefund {
  id: string;
  sale_id?: string;
  amount?: { total: string; currency: string };
  total_refunded_amount?: { value: string; currency: string };
}
