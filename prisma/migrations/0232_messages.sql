-- Messages between fans and creators (issue 32 item 6, docs/decisions/310), owned by the messages domain. A thread is
-- one fan and one creator page; a message is the fan's text or the creator's text with an optional item of their own
-- library, optionally locked behind a price the fan pays once (the credits move through the ledger, keyed by the
-- message). A mass message is what the creator wrote to all members at once; each member's thread gets its own copy,
-- unlocked on its own. Keys into users, creator pages and library items are constraints Prisma's schema does not
-- model (the messages domain writes none of those rows).
CREATE TABLE "message_threads" (
    "id" SERIAL NOT NULL,
    "creator_page_id" INTEGER NOT NULL,
    "fan_user_id" INTEGER NOT NULL,
    "blocked_at" TIMESTAMP(3),
    "fan_unread" INTEGER NOT NULL DEFAULT 0,
    "creator_unread" INTEGER NOT NULL DEFAULT 0,
    "last_message_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "message_threads_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "message_threads_creator_page_id_fkey" FOREIGN KEY ("creator_page_id") REFERENCES "creator_pages"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "message_threads_fan_user_id_fkey" FOREIGN KEY ("fan_user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "message_threads_unread_check" CHECK ("fan_unread" >= 0 AND "creator_unread" >= 0)
);
CREATE UNIQUE INDEX "message_threads_creator_page_id_fan_user_id_key" ON "message_threads"("creator_page_id", "fan_user_id");
CREATE INDEX "message_threads_fan_user_id_last_message_at_idx" ON "message_threads"("fan_user_id", "last_message_at");
CREATE INDEX "message_threads_creator_page_id_last_message_at_idx" ON "message_threads"("creator_page_id", "last_message_at");

CREATE TABLE "mass_messages" (
    "id" SERIAL NOT NULL,
    "creator_page_id" INTEGER NOT NULL,
    "body" TEXT NOT NULL DEFAULT '',
    "library_item_id" INTEGER,
    "price" INTEGER NOT NULL DEFAULT 0,
    "recipients" INTEGER NOT NULL DEFAULT 0,
    "idempotency_key" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "mass_messages_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "mass_messages_creator_page_id_fkey" FOREIGN KEY ("creator_page_id") REFERENCES "creator_pages"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "mass_messages_library_item_id_fkey" FOREIGN KEY ("library_item_id") REFERENCES "creator_library_items"("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "mass_messages_price_check" CHECK ("price" >= 0)
);
CREATE UNIQUE INDEX "mass_messages_creator_page_id_idempotency_key_key" ON "mass_messages"("creator_page_id", "idempotency_key");

CREATE TABLE "messages" (
    "id" SERIAL NOT NULL,
    "thread_id" INTEGER NOT NULL,
    "sender" TEXT NOT NULL,
    "body" TEXT NOT NULL DEFAULT '',
    "library_item_id" INTEGER,
    "price" INTEGER NOT NULL DEFAULT 0,
    "unlocked_at" TIMESTAMP(3),
    "mass_message_id" INTEGER,
    "idempotency_key" TEXT NOT NULL,
    "state" "ContentState" NOT NULL DEFAULT 'active',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "messages_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "messages_thread_id_fkey" FOREIGN KEY ("thread_id") REFERENCES "message_threads"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "messages_mass_message_id_fkey" FOREIGN KEY ("mass_message_id") REFERENCES "mass_messages"("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "messages_library_item_id_fkey" FOREIGN KEY ("library_item_id") REFERENCES "creator_library_items"("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "messages_sender_check" CHECK ("sender" IN ('fan', 'creator')),
    CONSTRAINT "messages_price_check" CHECK ("price" >= 0),
    -- fans send text only (docs/decisions/310): media and prices are the creator's
    CONSTRAINT "messages_fan_text_check" CHECK ("sender" = 'creator' OR ("library_item_id" IS NULL AND "price" = 0))
);
CREATE UNIQUE INDEX "messages_thread_id_idempotency_key_key" ON "messages"("thread_id", "idempotency_key");
CREATE INDEX "messages_thread_id_id_idx" ON "messages"("thread_id", "id");
CREATE INDEX "messages_mass_message_id_idx" ON "messages"("mass_message_id");
CREATE INDEX "messages_library_item_id_idx" ON "messages"("library_item_id");
