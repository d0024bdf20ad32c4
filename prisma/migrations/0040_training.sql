-- Issue 14: private character-model training (trainer jobs, lifecycle, likeness consent). docs/decisions/090-092.

-- AlterEnum
ALTER TYPE "TrainingStatus" ADD VALUE 'review' BEFORE 'doing';

-- AlterTable
ALTER TABLE "character_models" ADD COLUMN     "base_model" TEXT,
ADD COLUMN     "dataset_key" TEXT,
ADD COLUMN     "deadline_at" TIMESTAMP(3),
ADD COLUMN     "idempotency_key" TEXT,
ADD COLUMN     "progress" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "state" "ContentState" NOT NULL DEFAULT 'active',
ADD COLUMN     "submitted_at" TIMESTAMP(3),
ADD COLUMN     "trainer" TEXT,
ADD COLUMN     "trainer_job_id" TEXT,
ADD COLUMN     "trigger_word" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "weights_bytes" INTEGER;

-- CreateTable
CREATE TABLE "training_consents" (
    "id" SERIAL NOT NULL,
    "model_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "selfie_keys" TEXT[],
    "checks" JSONB NOT NULL,
    "min_age" DOUBLE PRECISION,
    "decision" TEXT NOT NULL,
    "reviewed_by" INTEGER,
    "review_reason" TEXT,
    "reviewed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "training_consents_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "training_consents_model_id_key" ON "training_consents"("model_id");

-- CreateIndex
CREATE INDEX "training_consents_decision_created_at_idx" ON "training_consents"("decision", "created_at");

-- CreateIndex
CREATE INDEX "training_consents_expires_at_idx" ON "training_consents"("expires_at");

-- CreateIndex
CREATE INDEX "character_models_status_created_at_idx" ON "character_models"("status", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "character_models_user_id_idempotency_key_key" ON "character_models"("user_id", "idempotency_key");

-- CreateIndex
CREATE UNIQUE INDEX "character_models_trainer_trainer_job_id_key" ON "character_models"("trainer", "trainer_job_id");

-- AddForeignKey
ALTER TABLE "training_consents" ADD CONSTRAINT "training_consents_model_id_fkey" FOREIGN KEY ("model_id") REFERENCES "character_models"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Home links are unique without regard to case (Prisma cannot express an expression index).
CREATE UNIQUE INDEX "character_models_home_link_lower_key" ON "character_models"(lower("home_link"));
