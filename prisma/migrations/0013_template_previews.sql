-- Each template's preview: a short loop rendered from the project's sample picture, and a fingerprint of the engine,
-- mode and parameters it shows (docs/decisions/063).
ALTER TABLE "templates" ADD COLUMN "preview_key" TEXT,
ADD COLUMN "preview_of" TEXT;
