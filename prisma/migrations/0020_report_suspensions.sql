-- Which underage reports hold their content suspended, so that dismissing the last one restores it (docs/decisions/071).
ALTER TABLE "reports" ADD COLUMN     "suspended_content" BOOLEAN NOT NULL DEFAULT false;
-- every underage report filed so far suspended its content
UPDATE "reports" SET "suspended_content" = true WHERE "reason" = 'underage';
