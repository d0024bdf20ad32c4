-- A guest's characters stay private until the account is registered (issue 29 defect 7, docs/decisions/251): the
-- catalogue's newest page was filled by one guest's 150 public characters. Characters guests already made public are
-- made private; their owners may publish them again once registered. Data only; owned by the chat domain.
UPDATE "characters" SET "is_public" = false
WHERE "is_public" AND "user_id" IN (SELECT "id" FROM "users" WHERE "role" = 'visitor');
