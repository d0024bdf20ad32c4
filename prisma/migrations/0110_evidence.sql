-- Issue 19: the restricted evidence store's records (docs/decisions/152).
CREATE TABLE "evidence" (
    "id" SERIAL NOT NULL,
    "report_id" INTEGER,
    "target_type" "ReportTarget" NOT NULL,
    "target_id" INTEGER NOT NULL,
    "user_id" INTEGER,
    "source_key" TEXT NOT NULL,
    "storage_key" TEXT NOT NULL,
    "kind" "UploadKind" NOT NULL,
    "mime" TEXT,
    "size_bytes" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "md5" TEXT NOT NULL,
    "keep_until" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "evidence_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "evidence_storage_key_key" ON "evidence"("storage_key");
CREATE UNIQUE INDEX "evidence_target_type_target_id_key" ON "evidence"("target_type", "target_id");
