-- Issue 47 item 8 (docs/decisions/373): `noRegister` is the login type of an account known only through the messaging
-- channel (the Telegram Mini App's player id), with no email and no Google sign-in. Channel logins used to be marked
-- `registered`; those accounts get the type they have had all along. An account with an email or a Google sign-in
-- stays `registered`, whatever else it has linked.
UPDATE "users" SET "login_type" = 'noRegister'
WHERE "login_type" = 'registered' AND "player_uid" IS NOT NULL AND "email" IS NULL AND "google_sub" IS NULL;
