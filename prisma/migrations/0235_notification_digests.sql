-- Email digests of the bell (issue 32 item 7, docs/decisions/312), owned by the notifications domain: off until the
-- person turns them on. digest_day is the UTC day last sent: the daily job claims a day by moving it forward in one
-- conditional UPDATE, so two workers running the same day send one digest.
CREATE TABLE "notification_settings" (
    "user_id" INTEGER NOT NULL,
    "email_digest" BOOLEAN NOT NULL DEFAULT false,
    "digest_day" TEXT,
    "last_digest_at" TIMESTAMP(3),
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_settings_pkey" PRIMARY KEY ("user_id"),
    CONSTRAINT "notification_settings_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "notification_settings_email_digest_digest_day_idx" ON "notification_settings"("email_digest", "digest_day");
