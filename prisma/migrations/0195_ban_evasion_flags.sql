-- A new account that shares only a weak signal (the browser fingerprint) with an account banned then is not refused:
-- it is flagged here for moderators to judge (docs/decisions/249). Owned by the moderation domain.
CREATE TABLE "ban_evasion_flags" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "ban_id" INTEGER NOT NULL,
    "signal" "BanMarkKind" NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ban_evasion_flags_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "ban_evasion_flags_user_id_ban_id_signal_key" ON "ban_evasion_flags"("user_id", "ban_id", "signal");
CREATE INDEX "ban_evasion_flags_created_at_idx" ON "ban_evasion_flags"("created_at");
ALTER TABLE "ban_evasion_flags" ADD CONSTRAINT "ban_evasion_flags_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "ban_evasion_flags" ADD CONSTRAINT "ban_evasion_flags_ban_id_fkey" FOREIGN KEY ("ban_id") REFERENCES "bans"("id") ON DELETE CASCADE ON UPDATE CASCADE;
