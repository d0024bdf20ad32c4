-- Rate-limit counters are throw-away (a crash may reset them): unlogged, so the upsert on every rate-limited request
-- (a refused submit included) commits without waiting for a WAL flush (docs/decisions/074).
ALTER TABLE "rate_limit_counters" SET UNLOGGED;
