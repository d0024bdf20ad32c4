-- Provenance of outputs (issue 33 item 8, docs/decisions/298): the perceptual hashes of every output delivered, so the
-- public provenance page recognises a copy whose Content Credentials were stripped. Bands as in blocked_hashes
-- (docs/decisions/142). No user, prompt or output key is kept: the page must not be able to tell who made it. Owned by
-- the provenance domain.
CREATE TABLE "output_fingerprints" (
    "id" SERIAL NOT NULL,
    "task_id" INTEGER NOT NULL,
    "hash" BIGINT NOT NULL,
    "band_0" INTEGER NOT NULL,
    "band_1" INTEGER NOT NULL,
    "band_2" INTEGER NOT NULL,
    "band_3" INTEGER NOT NULL,
    "band_4" INTEGER NOT NULL,
    "engine" TEXT NOT NULL,
    "made_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "output_fingerprints_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "output_fingerprints_task_id_hash_key" ON "output_fingerprints"("task_id", "hash");
CREATE INDEX "output_fingerprints_band_0_hash_idx" ON "output_fingerprints"("band_0", "hash");
CREATE INDEX "output_fingerprints_band_1_hash_idx" ON "output_fingerprints"("band_1", "hash");
CREATE INDEX "output_fingerprints_band_2_hash_idx" ON "output_fingerprints"("band_2", "hash");
CREATE INDEX "output_fingerprints_band_3_hash_idx" ON "output_fingerprints"("band_3", "hash");
CREATE INDEX "output_fingerprints_band_4_hash_idx" ON "output_fingerprints"("band_4", "hash");
