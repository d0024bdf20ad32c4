-- Issue 19: screening of uploaded photos and video frames (apparent age holds for review). docs/decisions/140-142.

-- CreateEnum
CREATE TYPE "ScreeningStatus" AS ENUM ('clear', 'held', 'approved', 'rejected');

-- CreateTable
CREATE TABLE "upload_screenings" (
    "id" SERIAL NOT NULL,
    "upload_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "status" "ScreeningStatus" NOT NULL,
    "faces" INTEGER,
    "youngest_age" DOUBLE PRECISION,
    "frames_checked" INTEGER NOT NULL,
    "hold_cause" TEXT,
    "reviewed_by" INTEGER,
    "review_reason" TEXT,
    "reviewed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "upload_screenings_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "upload_screenings_upload_id_key" ON "upload_screenings"("upload_id");

-- CreateIndex
CREATE INDEX "upload_screenings_status_created_at_idx" ON "upload_screenings"("status", "created_at");

-- CreateIndex
CREATE INDEX "upload_screenings_user_id_idx" ON "upload_screenings"("user_id");

-- AddForeignKey
ALTER TABLE "upload_screenings" ADD CONSTRAINT "upload_screenings_upload_id_fkey" FOREIGN KEY ("upload_id") REFERENCES "uploads"("id") ON DELETE CASCADE ON UPDATE CASCADE;
