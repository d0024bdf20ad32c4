-- A product carries a price, and a sale price, per currency (issue 35 item 1; docs/decisions/300). Owned by the products
-- domain. The prices live on the product row as a JSON list [{"currency", "priceMinor", "salePriceMinor"}], so a change
-- is one audited row like the product's other fields; the sale window (sale_starts_at, sale_ends_at) stays one for all
-- currencies. Every existing product's one price moves into that list, then the three columns go.
ALTER TABLE "products" ADD COLUMN "prices" JSONB NOT NULL DEFAULT '[]';

UPDATE "products"
SET "prices" = jsonb_build_array(jsonb_build_object('currency', upper("currency"), 'priceMinor', "price_minor", 'salePriceMinor', "sale_price_minor"));

ALTER TABLE "products" DROP COLUMN "price_minor", DROP COLUMN "currency", DROP COLUMN "sale_price_minor";
