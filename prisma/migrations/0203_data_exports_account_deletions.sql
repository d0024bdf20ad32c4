-- My data out and my account gone (GDPR Art. 15, 17, 20; issue 30 item 6, docs/decisions/261 and 262). Both tables
-- are owned by the privacy domain; users.erased_at by auth, which anonymises the row it keeps for the ledger's sake.
CREATE TYPE "DataExportStatus" AS ENUM ('queued', 'running', 'ready', 'failed', 'expired');
CREATE TYPE "AccountDeletionStatus" AS ENUM ('pending', 'cancelled', 'erased');

CREATE TABLE "data_exports" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "status" "DataExportStatus" NOT NULL DEFAULT 'queued',
    "staff_id" INTEGER,
    "storage_key" TEXT,
    "size_bytes" BIGINT,
    "error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ready_at" TIMESTAMP(3),
    "expires_at" TIMESTAMP(3),

    CONSTRAINT "data_exports_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "data_exports_user_id_created_at_idx" ON "data_exports"("user_id", "created_at");
CREATE INDEX "data_exports_status_expires_at_idx" ON "data_exports"("status", "expires_at");
-- one export at a time per account: a second request while one is queued or running is refused
CREATE UNIQUE INDEX "data_exports_one_open_per_user" ON "data_exports"("user_id") WHERE "status" IN ('queued', 'running');
ALTER TABLE "data_exports" ADD CONSTRAINT "data_exports_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "account_deletions" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "status" "AccountDeletionStatus" NOT NULL DEFAULT 'pending',
    "staff_id" INTEGER,
    "requested_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "erase_after" TIMESTAMP(3) NOT NULL,
    "cancelled_at" TIMESTAMP(3),
    "erased_at" TIMESTAMP(3),

    CONSTRAINT "account_deletions_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "account_deletions_status_erase_after_idx" ON "account_deletions"("status", "erase_after");
CREATE INDEX "account_deletions_user_id_idx" ON "account_deletions"("user_id");
-- one pending deletion per account: a second request during the grace period changes nothing
CREATE UNIQUE INDEX "account_deletions_one_pending_per_user" ON "account_deletions"("user_id") WHERE "status" = 'pending';
ALTER TABLE "account_deletions" ADD CONSTRAINT "account_deletions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "users" ADD COLUMN "erased_at" TIMESTAMP(3);
