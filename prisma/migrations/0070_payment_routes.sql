-- Issue 17: crypto bonus credited with the purchase, what a provider says arrived, and the staff-refund claim.
ALTER TABLE "orders" ADD COLUMN "bonus_credits" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "received_amount" TEXT,
ADD COLUMN "received_currency" TEXT,
ADD COLUMN "refund_started_at" TIMESTAMP(3);
