-- When the provider says the subscription's last applied state began (PayPal's status_update_time, or the webhook
-- event's create_time): a state change that began earlier is stale — a SUSPENDED delivered after the re-activation,
-- an ACTIVATED after a newer suspension — and is ignored (docs/decisions/225). NULL until a dated change is applied.
-- Owned by the memberships domain.
ALTER TABLE "memberships" ADD COLUMN "state_changed_at" TIMESTAMP(3);
