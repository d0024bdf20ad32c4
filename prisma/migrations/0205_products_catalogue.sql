-- Products staff edit in the console (issue 35 item 1, issue 31 items 1-2; docs/decisions/265 and 266). Owned by the
-- products domain, except orders.product_name (orders domain).
--
-- A sale is a window on a product: its sale price is charged between start and end, and its regular price, which it
-- is sold at whenever no sale runs, is the "was" price. Nobody types a "was" price any more, and "best value" is
-- computed from the packs on sale, so both columns go. Earlier flash-sale rows (sale price in price_minor, typed
-- "was" price beside it) become that shape.
ALTER TABLE "products" ADD COLUMN "names" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN "bonus_credits" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "sale_price_minor" INTEGER,
ADD COLUMN "sale_starts_at" TIMESTAMP(3),
ADD COLUMN "channels" TEXT[] DEFAULT ARRAY[]::TEXT[];

ALTER TABLE "products" RENAME COLUMN "flash_sale_ends_at" TO "sale_ends_at";

UPDATE "products" SET "sale_price_minor" = "price_minor", "price_minor" = "was_price_minor", "sale_starts_at" = "created_at"
WHERE "was_price_minor" IS NOT NULL AND "was_price_minor" > "price_minor" AND "sale_ends_at" IS NOT NULL;

ALTER TABLE "products" DROP COLUMN "was_price_minor", DROP COLUMN "best_value";

-- An order keeps the name it was sold under (the price is already kept: amount_minor, final_price_minor).
ALTER TABLE "orders" ADD COLUMN "product_name" TEXT;
UPDATE "orders" SET "product_name" = "products"."name" FROM "products" WHERE "products"."id" = "orders"."product_id";
ALTER TABLE "orders" ALTER COLUMN "product_name" SET NOT NULL;

-- The seeded "1 credit = 1 HD video" banner had its (false) claim baked into its picture. A banner may instead ask the
-- app to write the price claim over it, made from the configured prices (site domain). The seeded one gets a picture
-- without a caption, rendered at the next start (templates.seed.ts renders a seeded picture that is missing).
ALTER TABLE "banners" ADD COLUMN "shows_prices" BOOLEAN NOT NULL DEFAULT false;
UPDATE "banners" SET "shows_prices" = true, "title" = 'Credit packs and prices', "image_url" = 'site/banners/prices.jpg'
WHERE "image_url" = 'site/banners/credits.jpg';
