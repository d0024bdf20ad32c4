-- Issue 19: the public notice form, statements of reasons and appeals (docs/decisions/150, 151).
ALTER TYPE "ReportReason" ADD VALUE 'impersonation' BEFORE 'other';
ALTER TYPE "ReportReason" ADD VALUE 'copyright' BEFORE 'other';

CREATE TYPE "ReportSource" AS ENUM ('in_app', 'notice');
CREATE TYPE "DecisionAction" AS ENUM ('takedown', 'hold', 'ban');
CREATE TYPE "DecisionGround" AS ENUM ('underage', 'non_consensual', 'impersonation', 'copyright', 'other', 'repeat_offender');
CREATE TYPE "AppealStatus" AS ENUM ('open', 'upheld', 'reversed');

ALTER TABLE "reports" ADD COLUMN "source" "ReportSource" NOT NULL DEFAULT 'in_app',
    ADD COLUMN "reported_url" TEXT,
    ADD COLUMN "contact_name" TEXT,
    ADD COLUMN "contact_email" TEXT,
    ADD COLUMN "sworn_at" TIMESTAMP(3);

CREATE TABLE "decisions" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "action" "DecisionAction" NOT NULL,
    "ground" "DecisionGround" NOT NULL,
    "explanation" TEXT NOT NULL,
    "automated" BOOLEAN NOT NULL DEFAULT false,
    "decided_by_id" INTEGER,
    "target_type" "ReportTarget",
    "target_id" INTEGER,
    "ban_id" INTEGER,
    "report_id" INTEGER,
    "appeal_key" TEXT NOT NULL,
    "reversed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "decisions_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "appeals" (
    "id" SERIAL NOT NULL,
    "decision_id" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "status" "AppealStatus" NOT NULL DEFAULT 'open',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_by_id" INTEGER,
    "decided_at" TIMESTAMP(3),
    "decision_reason" TEXT,

    CONSTRAINT "appeals_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "decisions_ban_id_key" ON "decisions"("ban_id");
CREATE UNIQUE INDEX "decisions_appeal_key_key" ON "decisions"("appeal_key");
CREATE INDEX "decisions_user_id_created_at_idx" ON "decisions"("user_id", "created_at");
CREATE INDEX "decisions_created_at_idx" ON "decisions"("created_at");
CREATE UNIQUE INDEX "appeals_decision_id_key" ON "appeals"("decision_id");
CREATE INDEX "appeals_status_created_at_idx" ON "appeals"("status", "created_at");

ALTER TABLE "decisions" ADD CONSTRAINT "decisions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "decisions" ADD CONSTRAINT "decisions_ban_id_fkey" FOREIGN KEY ("ban_id") REFERENCES "bans"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_decision_id_fkey" FOREIGN KEY ("decision_id") REFERENCES "decisions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
