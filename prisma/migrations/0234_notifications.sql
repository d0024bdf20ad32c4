-- The bell (issue 32 item 7, docs/decisions/312), owned by the notifications domain. Other domains record a line in
-- their own transaction (a like, a remix, a tip), so a rolled-back action leaves none. While a line is unread, later
-- events on the same thing join it (one unread line per account, kind and thing: the partial unique index below);
-- notification_marks keeps who was already counted on what, so an unlike and a like again notify no one twice. The
-- keys into users are constraints Prisma's schema does not model (this domain writes no users row).
CREATE TABLE "notifications" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "subject_id" INTEGER NOT NULL DEFAULT 0,
    "actor_id" INTEGER,
    "count" INTEGER NOT NULL DEFAULT 1,
    "amount" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "read_at" TIMESTAMP(3),

    CONSTRAINT "notifications_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "notifications_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "notifications_actor_id_fkey" FOREIGN KEY ("actor_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "notifications_kind_check" CHECK ("kind" IN ('like', 'remix', 'follow', 'tip', 'message', 'unlock')),
    CONSTRAINT "notifications_count_check" CHECK ("count" > 0 AND "amount" >= 0)
);
CREATE INDEX "notifications_user_id_updated_at_id_idx" ON "notifications"("user_id", "updated_at", "id");
CREATE UNIQUE INDEX "notifications_unread_key" ON "notifications"("user_id", "kind", "subject_id") WHERE "read_at" IS NULL;

CREATE TABLE "notification_marks" (
    "user_id" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "subject_id" INTEGER NOT NULL,
    "actor_id" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_marks_pkey" PRIMARY KEY ("user_id", "kind", "subject_id", "actor_id"),
    CONSTRAINT "notification_marks_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "notification_marks_actor_id_fkey" FOREIGN KEY ("actor_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "notification_marks_actor_id_idx" ON "notification_marks"("actor_id");
