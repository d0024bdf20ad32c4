-- Provider-side refunds and chargebacks, USDT polling and PayPal subscriptions (issue 17, decisions 208 and 209).
-- provider_payment_ref: the provider's id of the payment itself where it differs from the checkout reference
-- (Stripe payment intent, PayPal capture or a subscription's first sale, NOWPayments payment id). Refund and
-- chargeback notifications that name only the payment find their order by it; USDT polling asks NOWPayments by it.
-- refunded_minor: what the provider says it returned of this order (a partial refund is recorded, not clawed back).
ALTER TABLE "orders" ADD COLUMN "provider_payment_ref" TEXT,
ADD COLUMN "refunded_minor" INTEGER;

CREATE INDEX "orders_provider_provider_payment_ref_idx" ON "orders"("provider", "provider_payment_ref");
