-- Operator console (issue 6): covering indexes for the dashboard's aggregate queries, so each one is an
-- index-only scan over the requested window instead of a heap visit per row (see docs/decisions/032).
-- Partial / INCLUDE indexes cannot be written in schema.prisma; they live only here.

-- revenue per day by provider: paid orders by paid_at, with what the sum needs
CREATE INDEX "orders_paid_at_revenue_idx" ON "orders" ("paid_at") INCLUDE ("provider", "currency", "final_price_minor") WHERE "status" = 'paid';

-- generations per day by status and mode
CREATE INDEX "generation_tasks_created_at_status_mode_idx" ON "generation_tasks" ("created_at") INCLUDE ("status", "mode");

-- sign-ups per day by login type (merged guest accounts are not sign-ups)
CREATE INDEX "users_created_at_login_type_idx" ON "users" ("created_at") INCLUDE ("login_type") WHERE "merged_into_id" IS NULL;
