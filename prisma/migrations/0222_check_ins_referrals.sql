-- Daily and referral gifts (issue 32 item 4, docs/decisions/302), owned by the rewards domain: one check-in per account
-- per date of its own time zone, each account's invitation code, and the invitations with what they gave or why not.
-- users.time_zone is the users domain's: the zone an account's day is counted in, set from the browser.
ALTER TABLE "users" ADD COLUMN "time_zone" TEXT;

CREATE TYPE "ReferralStatus" AS ENUM ('pending', 'paid', 'refused', 'reversed');

CREATE TABLE "check_ins" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "local_date" DATE NOT NULL,
    "credits" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "check_ins_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "check_ins_user_id_local_date_key" ON "check_ins"("user_id", "local_date");
CREATE INDEX "check_ins_created_at_idx" ON "check_ins"("created_at");
ALTER TABLE "check_ins" ADD CONSTRAINT "check_ins_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "referral_codes" (
    "user_id" INTEGER NOT NULL,
    "code" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "referral_codes_pkey" PRIMARY KEY ("user_id")
);
CREATE UNIQUE INDEX "referral_codes_code_key" ON "referral_codes"("code");
ALTER TABLE "referral_codes" ADD CONSTRAINT "referral_codes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "referrals" (
    "id" SERIAL NOT NULL,
    "inviter_id" INTEGER NOT NULL,
    "invitee_id" INTEGER NOT NULL,
    "status" "ReferralStatus" NOT NULL DEFAULT 'pending',
    "refusal" TEXT,
    "inviter_credits" INTEGER NOT NULL DEFAULT 0,
    "invitee_credits" INTEGER NOT NULL DEFAULT 0,
    "order_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_at" TIMESTAMP(3),
    "reversed_at" TIMESTAMP(3),
    "reversed_by_id" INTEGER,

    CONSTRAINT "referrals_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "referrals_invitee_id_key" ON "referrals"("invitee_id");
CREATE INDEX "referrals_inviter_id_idx" ON "referrals"("inviter_id");
CREATE INDEX "referrals_decided_at_idx" ON "referrals"("decided_at");
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_inviter_id_fkey" FOREIGN KEY ("inviter_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_invitee_id_fkey" FOREIGN KEY ("invitee_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- An email as one mailbox: lower case, without a +tag, and for Gmail without dots in the local part (the same inbox
-- behind many spellings is the usual way to invite oneself).
CREATE FUNCTION normalised_email(email text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN split_part(e, '@', 2) IN ('gmail.com', 'googlemail.com')
      THEN replace(split_part(split_part(e, '@', 1), '+', 1), '.', '') || '@gmail.com'
    ELSE split_part(split_part(e, '@', 1), '+', 1) || '@' || split_part(e, '@', 2)
  END
  FROM (SELECT lower(trim(email)) AS e) s
$$;
