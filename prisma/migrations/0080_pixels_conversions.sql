-- Ad pixels (issue 18, docs/decisions/121): per-channel server-side conversion credentials, the one purchase
-- conversion of each paid order, and its outbox of vendor deliveries.
ALTER TABLE "channels" ADD COLUMN "server_conversions" JSONB;

CREATE TABLE "purchase_conversions" (
    "id" SERIAL NOT NULL,
    "order_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "event_id" TEXT NOT NULL,
    "channel_id" TEXT,
    "value_minor" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "advertising_consent" BOOLEAN NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "purchase_conversions_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "conversion_deliveries" (
    "id" SERIAL NOT NULL,
    "conversion_id" INTEGER NOT NULL,
    "vendor" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_error" TEXT,
    "sent_at" TIMESTAMP(3),
    "context" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "conversion_deliveries_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "purchase_conversions_order_id_key" ON "purchase_conversions"("order_id");

CREATE INDEX "conversion_deliveries_status_next_attempt_at_idx" ON "conversion_deliveries"("status", "next_attempt_at");

CREATE UNIQUE INDEX "conversion_deliveries_conversion_id_vendor_key" ON "conversion_deliveries"("conversion_id", "vendor");

ALTER TABLE "conversion_deliveries" ADD CONSTRAINT "conversion_deliveries_conversion_id_fkey" FOREIGN KEY ("conversion_id") REFERENCES "purchase_conversions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
