-- Chat with AI characters (issue 15, docs/decisions/100-104): character cards, conversation summaries and states, reply
-- bookkeeping (status, turn, credits, idempotency key), policy hits and back-end call records.
-- AlterEnum
ALTER TYPE "ReportTarget" ADD VALUE 'conversation';

-- AlterTable
ALTER TABLE "characters" DROP COLUMN "avatar_url",
ADD COLUMN     "age" INTEGER,
ADD COLUMN     "avatar_key" TEXT,
ADD COLUMN     "conversation_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "example_lines" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "scenario" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "tier" TEXT NOT NULL DEFAULT 'standard';

-- AlterTable
ALTER TABLE "conversations" ADD COLUMN     "deleted_at" TIMESTAMP(3),
ADD COLUMN     "last_message_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "state" "ContentState" NOT NULL DEFAULT 'active',
ADD COLUMN     "summary" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "summary_up_to_id" INTEGER;

-- AlterTable
ALTER TABLE "chat_messages" ADD COLUMN     "backend" TEXT,
ADD COLUMN     "client_key" TEXT,
ADD COLUMN     "credits" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "free" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "reply_to_id" INTEGER,
ADD COLUMN     "status" TEXT NOT NULL DEFAULT 'complete';

-- CreateTable
CREATE TABLE "chat_policy_hits" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "conversation_id" INTEGER,
    "character_id" INTEGER,
    "source" TEXT NOT NULL,
    "rule" TEXT NOT NULL,
    "excerpt" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chat_policy_hits_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "chat_backend_calls" (
    "id" SERIAL NOT NULL,
    "backend" TEXT NOT NULL,
    "ok" BOOLEAN NOT NULL,
    "http_status" INTEGER,
    "error" TEXT,
    "first_token_ms" INTEGER,
    "total_ms" INTEGER NOT NULL,
    "prompt_tokens" INTEGER,
    "completion_tokens" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chat_backend_calls_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "chat_policy_hits_user_id_created_at_idx" ON "chat_policy_hits"("user_id", "created_at");

-- CreateIndex
CREATE INDEX "chat_policy_hits_created_at_idx" ON "chat_policy_hits"("created_at");

-- CreateIndex
CREATE INDEX "chat_backend_calls_backend_created_at_idx" ON "chat_backend_calls"("backend", "created_at");

-- CreateIndex
CREATE INDEX "characters_is_public_state_conversation_count_idx" ON "characters"("is_public", "state", "conversation_count");

-- CreateIndex
CREATE INDEX "conversations_user_id_last_message_at_idx" ON "conversations"("user_id", "last_message_at");

-- CreateIndex
CREATE UNIQUE INDEX "chat_messages_client_key_key" ON "chat_messages"("client_key");

-- CreateIndex
CREATE INDEX "chat_messages_reply_to_id_idx" ON "chat_messages"("reply_to_id");

-- AddForeignKey
ALTER TABLE "chat_policy_hits" ADD CONSTRAINT "chat_policy_hits_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- What Prisma cannot express: every character is an adult, and a reply never costs negative credits.
ALTER TABLE "characters" ADD CONSTRAINT "characters_adult" CHECK ("age" IS NULL OR "age" >= 18);
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_credits_non_negative" CHECK ("credits" >= 0);
