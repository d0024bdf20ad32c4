-- Payments (issue 3): the sandbox provider's hosted-checkout sessions, and database-level guards on orders
-- and the ledger so that no code path can store a nonsensical order or an empty ledger movement.

-- CreateEnum
CREATE TYPE "SandboxSessionStatus" AS ENUM ('open', 'challenge', 'succeeded', 'declined', 'refunded');

-- CreateTable
CREATE TABLE "sandbox_sessions" (
    "id" TEXT NOT NULL,
    "order_no" TEXT NOT NULL,
    "amount_minor" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "return_url" TEXT NOT NULL,
    "status" "SandboxSessionStatus" NOT NULL DEFAULT 'open',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "sandbox_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "sandbox_sessions_order_no_idx" ON "sandbox_sessions"("order_no");

-- Guards (hand-written)
ALTER TABLE "orders" ADD CONSTRAINT "orders_quantity_positive" CHECK ("quantity" > 0);
ALTER TABLE "orders" ADD CONSTRAINT "orders_amounts_non_negative" CHECK ("amount_minor" >= 0 AND "final_price_minor" >= 0);
ALTER TABLE "orders" ADD CONSTRAINT "orders_credits_positive" CHECK ("credits" > 0);
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_delta_non_zero" CHECK ("delta" <> 0);
ALTER TABLE "products" ADD CONSTRAINT "products_price_non_negative" CHECK ("price_minor" >= 0 AND "credits" > 0);
