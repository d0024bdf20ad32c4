-- Issue 19: a ban covers the account's email, Google subject, channel player id and devices (docs/decisions/154).
ALTER TABLE "sessions" ADD COLUMN "device_id" TEXT,
    ADD COLUMN "fingerprint" TEXT;

CREATE TYPE "BanMarkKind" AS ENUM ('email', 'google_sub', 'player_uid', 'device_id', 'fingerprint');

CREATE TABLE "ban_marks" (
    "id" SERIAL NOT NULL,
    "ban_id" INTEGER NOT NULL,
    "kind" "BanMarkKind" NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "ban_marks_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "ban_marks_ban_id_kind_value_key" ON "ban_marks"("ban_id", "kind", "value");
CREATE INDEX "ban_marks_kind_value_idx" ON "ban_marks"("kind", "value");
ALTER TABLE "ban_marks" ADD CONSTRAINT "ban_marks_ban_id_fkey" FOREIGN KEY ("ban_id") REFERENCES "bans"("id") ON DELETE CASCADE ON UPDATE CASCADE;
