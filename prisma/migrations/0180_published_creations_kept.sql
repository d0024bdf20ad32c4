-- Creations already published on a creator page stop expiring (issue 16, docs/decisions/216): from now on the
-- creators domain's publishing transaction clears a creation's expiry through the generation service, and taking it
-- off the page starts a fresh one. This does the same once for the items published before, while their results
-- still exist (expires_at is UTC without a time zone, as Prisma writes it). No schema change.
UPDATE "generation_tasks" t SET "expires_at" = NULL
  FROM "creator_library_items" i
 WHERE i."task_id" = t."id" AND t."status" = 'succeeded' AND t."expires_at" > (now() AT TIME ZONE 'UTC');
