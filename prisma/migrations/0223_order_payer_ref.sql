-- Who paid an order as its provider names them (a card fingerprint, a payer id), where the provider says (orders
-- domain). The rewards domain refuses a referral gift when the same payer stands behind the inviter or a banned account
-- (docs/decisions/302).
ALTER TABLE "orders" ADD COLUMN "payer_ref" TEXT;
CREATE INDEX "orders_payer_ref_idx" ON "orders"("payer_ref");
