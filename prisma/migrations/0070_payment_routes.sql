-- Issue 17: crypto bonus credited with the purchase, what a provider says arrived, and the staff-refund claim.
ALTER TABLE "orders" ADD COLUMN "bonus_credits" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "received_amount" TEXT,
ADD COLUMN "received_currency" TEXT,
ADD COLUMN "refund_started_at" TIMESTAMP(3);

-- Memberships: a plan renewing through a provider's subscription, credited once per paid period (decision 115).
CREATE TABLE "memberships" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "order_id" INTEGER NOT NULL,
    "provider" TEXT NOT NULL,
    "provider_ref" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "credits_per_period" INTEGER NOT NULL,
    "periods_paid" INTEGER NOT NULL DEFAULT 1,
    "current_period_end" TIMESTAMP(3),
    "cancel_at_period_end" BOOLEAN NOT NULL DEFAULT false,
    "ended_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "memberships_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "memberships_order_id_key" ON "memberships"("order_id");
CREATE INDEX "memberships_user_id_status_idx" ON "memberships"("user_id", "status");
CREATE UNIQUE INDEX "memberships_provider_provider_ref_key" ON "memberships"("provider", "provider_ref");

ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;
