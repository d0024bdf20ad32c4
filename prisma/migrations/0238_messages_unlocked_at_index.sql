-- The console's dashboard counts message unlocks per day (issue 32 item 8) by unlocked_at over the last weeks; without
-- an index that count read every message ever sent. Partial: only paid messages that were opened have the column set,
-- and the bulk of the table (free and unopened messages) stays out. Prisma cannot express a partial index;
-- schema.prisma says so on the model.
CREATE INDEX "messages_unlocked_at_idx" ON "messages"("unlocked_at") WHERE "unlocked_at" IS NOT NULL;
