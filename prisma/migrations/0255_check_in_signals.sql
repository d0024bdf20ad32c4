-- Issue 47 item 2 (docs/decisions/345): eight new accounts from one address and one device each took the daily gift.
-- A check-in now records where it was taken from, so that one device or address takes one gift a day and a network a
-- capped number; the console lists who got gifts from where. Rows from before carry no signals.
ALTER TABLE "check_ins" ADD COLUMN "ip" TEXT;
ALTER TABLE "check_ins" ADD COLUMN "network" TEXT;
ALTER TABLE "check_ins" ADD COLUMN "device_ids" TEXT[] DEFAULT ARRAY[]::TEXT[];
ALTER TABLE "check_ins" ADD COLUMN "fingerprints" TEXT[] DEFAULT ARRAY[]::TEXT[];
CREATE INDEX "check_ins_network_created_at_idx" ON "check_ins"("network", "created_at");
