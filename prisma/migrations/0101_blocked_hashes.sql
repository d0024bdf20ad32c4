-- Issue 19: blocklist of taken-down media by perceptual hash, multi-index (5 bands of 13/13/13/13/12 bits). docs/decisions/142.

-- CreateTable
CREATE TABLE "blocked_hashes" (
    "id" SERIAL NOT NULL,
    "hash" BIGINT NOT NULL,
    "band_0" INTEGER NOT NULL,
    "band_1" INTEGER NOT NULL,
    "band_2" INTEGER NOT NULL,
    "band_3" INTEGER NOT NULL,
    "band_4" INTEGER NOT NULL,
    "source" TEXT NOT NULL,
    "target_type" TEXT,
    "target_id" INTEGER,
    "note" TEXT,
    "added_by" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "blocked_hashes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "blocked_hash_hits" (
    "id" SERIAL NOT NULL,
    "blocked_hash_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "task_id" INTEGER,
    "distance" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "blocked_hash_hits_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "blocked_hashes_hash_key" ON "blocked_hashes"("hash");

-- CreateIndex
CREATE INDEX "blocked_hashes_band_0_hash_idx" ON "blocked_hashes"("band_0", "hash");

-- CreateIndex
CREATE INDEX "blocked_hashes_band_1_hash_idx" ON "blocked_hashes"("band_1", "hash");

-- CreateIndex
CREATE INDEX "blocked_hashes_band_2_hash_idx" ON "blocked_hashes"("band_2", "hash");

-- CreateIndex
CREATE INDEX "blocked_hashes_band_3_hash_idx" ON "blocked_hashes"("band_3", "hash");

-- CreateIndex
CREATE INDEX "blocked_hashes_band_4_hash_idx" ON "blocked_hashes"("band_4", "hash");

-- CreateIndex
CREATE INDEX "blocked_hashes_target_type_target_id_idx" ON "blocked_hashes"("target_type", "target_id");

-- CreateIndex
CREATE INDEX "blocked_hash_hits_blocked_hash_id_idx" ON "blocked_hash_hits"("blocked_hash_id");

-- CreateIndex
CREATE INDEX "blocked_hash_hits_user_id_idx" ON "blocked_hash_hits"("user_id");

-- AddForeignKey
ALTER TABLE "blocked_hash_hits" ADD CONSTRAINT "blocked_hash_hits_blocked_hash_id_fkey" FOREIGN KEY ("blocked_hash_id") REFERENCES "blocked_hashes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
