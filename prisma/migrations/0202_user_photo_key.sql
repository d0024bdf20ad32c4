-- A profile photo chosen from the person's own uploads (issue 30 item 2, docs/decisions/259): the storage key of that
-- image, signed on each read like a character's avatar; `photo` keeps the address a sign-in (Google) brought. Owned by
-- the users domain.
ALTER TABLE "users" ADD COLUMN "photo_key" TEXT;
