-- Character models on the GPU servers (issue 44 items 1-2, docs/decisions/330): the weights' SHA-256, by which a GPU
-- server's cache fetches and checks the file (models trained before this get it on their next use), and every server
-- that fetched a copy, for the data export and for erasure. Copies outlive a removed model (model_id set null) with
-- the time the server confirmed it deleted the file; they go with the account.
ALTER TABLE "character_models" ADD COLUMN "weights_sha256" TEXT;

CREATE TABLE "gpu_lora_copies" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "model_id" INTEGER,
    "sha256" TEXT NOT NULL,
    "server" TEXT NOT NULL,
    "first_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "evicted_at" TIMESTAMP(3),

    CONSTRAINT "gpu_lora_copies_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "gpu_lora_copies_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "gpu_lora_copies_model_id_fkey" FOREIGN KEY ("model_id") REFERENCES "character_models"("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "gpu_lora_copies_sha256_server_key" ON "gpu_lora_copies"("sha256", "server");
CREATE INDEX "gpu_lora_copies_user_id_idx" ON "gpu_lora_copies"("user_id");
CREATE INDEX "gpu_lora_copies_model_id_idx" ON "gpu_lora_copies"("model_id");
