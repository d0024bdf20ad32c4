-- The sandbox sells a plan as a real subscription (issue 30 item 4, docs/decisions/257): a paid plan checkout starts
-- a subscription on the sandbox's side, which charges each period and notifies Reverie like any provider. Owned by the
-- payments domain (the sandbox gateway), as sandbox_sessions is.
ALTER TABLE "sandbox_sessions" ADD COLUMN "renew_every_days" INTEGER;

CREATE TABLE "sandbox_subscriptions" (
    "id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "order_no" TEXT NOT NULL,
    "amount_minor" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "interval_days" INTEGER NOT NULL,
    "period" INTEGER NOT NULL DEFAULT 1,
    "notified_period" INTEGER NOT NULL DEFAULT 1,
    "current_period_end" TIMESTAMP(3) NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "sandbox_subscriptions_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "sandbox_subscriptions_session_id_key" ON "sandbox_subscriptions"("session_id");
CREATE INDEX "sandbox_subscriptions_status_current_period_end_idx" ON "sandbox_subscriptions"("status", "current_period_end");
ALTER TABLE "sandbox_subscriptions" ADD CONSTRAINT "sandbox_subscriptions_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sandbox_sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
