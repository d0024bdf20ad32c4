-- Issue 16: paid creator memberships (credits per period, renewed from the fan's balance through the ledger) and the
-- page's content library (the creator's own finished creations, public or members-only). Not the provider-billed
-- plan memberships (`memberships`, issue 17).
CREATE TYPE "CreatorMembershipStatus" AS ENUM ('active', 'cancelled', 'ended');
CREATE TYPE "LibraryVisibility" AS ENUM ('public', 'members');

ALTER TABLE "creator_pages" ADD COLUMN "membership_price" INTEGER;

CREATE TABLE "creator_memberships" (
    "id" SERIAL NOT NULL,
    "creator_page_id" INTEGER NOT NULL,
    "fan_user_id" INTEGER NOT NULL,
    "price" INTEGER NOT NULL,
    "status" "CreatorMembershipStatus" NOT NULL DEFAULT 'active',
    "period" INTEGER NOT NULL DEFAULT 1,
    "paid_through" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "cancelled_at" TIMESTAMP(3),
    "ended_at" TIMESTAMP(3),

    CONSTRAINT "creator_memberships_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "creator_memberships_price_positive" CHECK ("price" > 0),
    CONSTRAINT "creator_memberships_period_positive" CHECK ("period" > 0)
);

-- one row per fan and page: joining again after an ending reuses it with the next period number (fresh ledger keys)
CREATE UNIQUE INDEX "creator_memberships_creator_page_id_fan_user_id_key" ON "creator_memberships"("creator_page_id", "fan_user_id");
-- the renewal sweep reads due rows
CREATE INDEX "creator_memberships_status_paid_through_idx" ON "creator_memberships"("status", "paid_through");

ALTER TABLE "creator_memberships" ADD CONSTRAINT "creator_memberships_creator_page_id_fkey" FOREIGN KEY ("creator_page_id") REFERENCES "creator_pages"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "creator_memberships" ADD CONSTRAINT "creator_memberships_fan_user_id_fkey" FOREIGN KEY ("fan_user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "creator_library_items" (
    "id" SERIAL NOT NULL,
    "creator_page_id" INTEGER NOT NULL,
    "task_id" INTEGER NOT NULL,
    "visibility" "LibraryVisibility" NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "creator_library_items_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "creator_library_items_creator_page_id_task_id_key" ON "creator_library_items"("creator_page_id", "task_id");
CREATE INDEX "creator_library_items_task_id_idx" ON "creator_library_items"("task_id");

ALTER TABLE "creator_library_items" ADD CONSTRAINT "creator_library_items_creator_page_id_fkey" FOREIGN KEY ("creator_page_id") REFERENCES "creator_pages"("id") ON DELETE CASCADE ON UPDATE CASCADE;
