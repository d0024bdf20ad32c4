-- Tips from fans to creators (issue 32 item 5, docs/decisions/304), owned by the creators domain. The credits move
-- through the ledger (keyed by the tip); this row is what the tip was: its page, fan, amount, message and whether staff
-- reversed it. The key into users is a constraint Prisma's schema does not model (the creators domain writes no users
-- row). A fan's own key per tap is unique: a double click or a retried request is one tip.
CREATE TABLE "creator_tips" (
    "id" SERIAL NOT NULL,
    "creator_page_id" INTEGER NOT NULL,
    "fan_user_id" INTEGER NOT NULL,
    "library_item_id" INTEGER,
    "amount" INTEGER NOT NULL,
    "message" TEXT,
    "idempotency_key" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'completed',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "reversed_at" TIMESTAMP(3),
    "reversed_by_id" INTEGER,
    "reversal_note" TEXT,
    "reversal_shortfall" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "creator_tips_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "creator_tips_creator_page_id_fkey" FOREIGN KEY ("creator_page_id") REFERENCES "creator_pages"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "creator_tips_library_item_id_fkey" FOREIGN KEY ("library_item_id") REFERENCES "creator_library_items"("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "creator_tips_fan_user_id_fkey" FOREIGN KEY ("fan_user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "creator_tips_reversed_by_id_fkey" FOREIGN KEY ("reversed_by_id") REFERENCES "staff"("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "creator_tips_status_check" CHECK ("status" IN ('completed', 'reversed')),
    CONSTRAINT "creator_tips_amount_check" CHECK ("amount" > 0)
);
CREATE UNIQUE INDEX "creator_tips_fan_user_id_idempotency_key_key" ON "creator_tips"("fan_user_id", "idempotency_key");
CREATE INDEX "creator_tips_creator_page_id_id_idx" ON "creator_tips"("creator_page_id", "id");
CREATE INDEX "creator_tips_fan_user_id_id_idx" ON "creator_tips"("fan_user_id", "id");
CREATE INDEX "creator_tips_library_item_id_idx" ON "creator_tips"("library_item_id");
