-- Renewal periods whose money the provider returned (a PayPal subscription sale refunded or reversed): each period's
-- credits are taken back once, and this list is the gate, because a balance of zero leaves no ledger entry that could
-- be one (docs/decisions/219). Owned by the memberships domain.
ALTER TABLE "memberships" ADD COLUMN "reversed_periods" TEXT[] DEFAULT ARRAY[]::TEXT[];
