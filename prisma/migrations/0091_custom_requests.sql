-- Issue 16: premium custom requests with escrow. The price a fan pays is held (a ledger charge) until the creator
-- delivers (released to the creator) or declines or the request expires (returned to the fan).
CREATE TYPE "CustomRequestStatus" AS ENUM ('pending', 'accepted', 'delivered', 'declined', 'expired');

ALTER TABLE "creator_pages" ADD COLUMN "request_price" INTEGER;

CREATE TABLE "custom_requests" (
    "id" SERIAL NOT NULL,
    "creator_page_id" INTEGER NOT NULL,
    "fan_user_id" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "price" INTEGER NOT NULL,
    "status" "CustomRequestStatus" NOT NULL DEFAULT 'pending',
    "delivered_task_id" INTEGER,
    "satisfied" BOOLEAN,
    "idempotency_key" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "answered_at" TIMESTAMP(3),
    "rated_at" TIMESTAMP(3),

    CONSTRAINT "custom_requests_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "custom_requests_price_positive" CHECK ("price" > 0)
);

CREATE UNIQUE INDEX "custom_requests_fan_user_id_idempotency_key_key" ON "custom_requests"("fan_user_id", "idempotency_key");
CREATE INDEX "custom_requests_creator_page_id_status_idx" ON "custom_requests"("creator_page_id", "status");
CREATE INDEX "custom_requests_status_expires_at_idx" ON "custom_requests"("status", "expires_at");

ALTER TABLE "custom_requests" ADD CONSTRAINT "custom_requests_creator_page_id_fkey" FOREIGN KEY ("creator_page_id") REFERENCES "creator_pages"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "custom_requests" ADD CONSTRAINT "custom_requests_fan_user_id_fkey" FOREIGN KEY ("fan_user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
