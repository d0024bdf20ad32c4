-- TON wallets linked with TON Connect's ton_proof, and the proof payloads the server issues (issue 17 item 4,
-- docs/decisions/211). Owned by the wallets domain.
CREATE TABLE "wallets" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "address" TEXT NOT NULL,
    "public_key" TEXT NOT NULL,
    "chain" TEXT NOT NULL,
    "linked_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "wallets_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "wallet_proof_payloads" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "payload" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "used_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "wallet_proof_payloads_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "wallets_user_id_key" ON "wallets"("user_id");

CREATE UNIQUE INDEX "wallets_address_key" ON "wallets"("address");

CREATE UNIQUE INDEX "wallet_proof_payloads_payload_key" ON "wallet_proof_payloads"("payload");

CREATE INDEX "wallet_proof_payloads_user_id_idx" ON "wallet_proof_payloads"("user_id");

CREATE INDEX "wallet_proof_payloads_expires_at_idx" ON "wallet_proof_payloads"("expires_at");

ALTER TABLE "wallets" ADD CONSTRAINT "wallets_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "wallet_proof_payloads" ADD CONSTRAINT "wallet_proof_payloads_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
