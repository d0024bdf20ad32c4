-- A support inbox instead of a mailto (issue 35 item 3, docs/decisions/281): one thread per conversation between a
-- person and support, optionally about one of their orders; owned by the support domain. The keys into users, orders
-- and staff are constraints Prisma's schema does not model (the support domain writes no other table).
CREATE TABLE "support_threads" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "order_id" INTEGER,
    "status" TEXT NOT NULL DEFAULT 'open',
    "assignee_id" INTEGER,
    "last_message_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "read_by_user_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "support_threads_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "support_threads_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "support_threads_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "support_threads_assignee_id_fkey" FOREIGN KEY ("assignee_id") REFERENCES "staff"("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "support_threads_status_check" CHECK ("status" IN ('open', 'answered', 'closed'))
);
CREATE INDEX "support_threads_status_last_message_at_idx" ON "support_threads"("status", "last_message_at");
CREATE INDEX "support_threads_user_id_id_idx" ON "support_threads"("user_id", "id");

CREATE TABLE "support_messages" (
    "id" SERIAL NOT NULL,
    "thread_id" INTEGER NOT NULL,
    "author" TEXT NOT NULL,
    "staff_id" INTEGER,
    "body" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "support_messages_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "support_messages_thread_id_fkey" FOREIGN KEY ("thread_id") REFERENCES "support_threads"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "support_messages_staff_id_fkey" FOREIGN KEY ("staff_id") REFERENCES "staff"("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "support_messages_author_check" CHECK ("author" IN ('person', 'staff'))
);
CREATE INDEX "support_messages_thread_id_id_idx" ON "support_messages"("thread_id", "id");

-- One conversation at a time per person: two first messages sent at once cannot open two threads.
CREATE UNIQUE INDEX "support_threads_one_open_per_user" ON "support_threads"("user_id") WHERE "status" <> 'closed';
