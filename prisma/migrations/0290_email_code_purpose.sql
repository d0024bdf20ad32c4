-- Issue 46 item 8 (docs/decisions/379): an account deletion's confirmation code shared the sign-in code's row, so asking
-- for one inside the sign-in code's 60 s answered "Too many requests", and a sign-in code confirmed a deletion (and a
-- deletion code signed in). A code now names what it is for; each purpose has its own resend window and is used up
-- only by its own purpose. Codes from before were all sign-in codes.
ALTER TABLE "email_codes" ADD COLUMN "purpose" TEXT NOT NULL DEFAULT 'login';
ALTER TABLE "email_codes" ADD CONSTRAINT "email_codes_purpose_check" CHECK ("purpose" IN ('login', 'account_deletion'));
DROP INDEX "email_codes_email_created_at_idx";
CREATE INDEX "email_codes_email_purpose_created_at_idx" ON "email_codes"("email", "purpose", "created_at");
