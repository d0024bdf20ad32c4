-- Issue 16: creator payouts and requests in dispute (docs/decisions/206).
-- A payout request holds its credits out of the creator's balance (a ledger charge) while staff decide: approved, the
-- credits stay gone (paid outside, the reference names the transfer); rejected, they return once.
CREATE TYPE "PayoutStatus" AS ENUM ('requested', 'approved', 'rejected');

CREATE TABLE "creator_payouts" (
    "id" SERIAL NOT NULL,
    "creator_page_id" INTEGER NOT NULL,
    "amount" INTEGER NOT NULL,
    "status" "PayoutStatus" NOT NULL DEFAULT 'requested',
    "idempotency_key" TEXT NOT NULL,
    "reference" TEXT,
    "reject_reason" TEXT,
    "decided_by_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_at" TIMESTAMP(3),

    CONSTRAINT "creator_payouts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "creator_payouts_amount_positive" CHECK ("amount" > 0)
);

CREATE UNIQUE INDEX "creator_payouts_creator_page_id_idempotency_key_key" ON "creator_payouts"("creator_page_id", "idempotency_key");
CREATE INDEX "creator_payouts_status_created_at_idx" ON "creator_payouts"("status", "created_at");

ALTER TABLE "creator_payouts" ADD CONSTRAINT "creator_payouts_creator_page_id_fkey" FOREIGN KEY ("creator_page_id") REFERENCES "creator_pages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A fan unhappy with a delivery may dispute it: its price stays out of the creator's payable credits until staff
-- refund the fan (taking back from the creator what the balance still holds) or uphold the delivery.
CREATE TYPE "DisputeStatus" AS ENUM ('open', 'refunded', 'upheld');

ALTER TABLE "custom_requests"
    ADD COLUMN "dispute_status" "DisputeStatus",
    ADD COLUMN "dispute_reason" TEXT,
    ADD COLUMN "disputed_at" TIMESTAMP(3),
    ADD COLUMN "dispute_resolved_at" TIMESTAMP(3),
    ADD COLUMN "dispute_resolved_by_id" INTEGER,
    ADD COLUMN "dispute_note" TEXT,
    ADD COLUMN "dispute_shortfall" INTEGER NOT NULL DEFAULT 0;

CREATE INDEX "custom_requests_dispute_status_disputed_at_idx" ON "custom_requests"("dispute_status", "disputed_at");
