-- Conversion API tokens move out of channels.server_conversions into a sealed secret store (issue 18,
-- docs/decisions/191). Sealing needs SECRETS_KEY, which the database never sees: the API moves the tokens still in
-- channels.server_conversions into this table at start-up (pixels' sealLegacyTokens), then strips them there.
CREATE TABLE "channel_secrets" (
    "id" SERIAL NOT NULL,
    "channel_id" INTEGER NOT NULL,
    "vendor" TEXT NOT NULL,
    "field" TEXT NOT NULL,
    "sealed" TEXT NOT NULL,
    "last4" TEXT NOT NULL,
    "updated_by" INTEGER,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "channel_secrets_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "channel_secrets_channel_id_vendor_field_key" ON "channel_secrets"("channel_id", "vendor", "field");

ALTER TABLE "channel_secrets" ADD CONSTRAINT "channel_secrets_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "channels"("id") ON DELETE CASCADE ON UPDATE CASCADE;
