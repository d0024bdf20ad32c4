-- Characters send pictures and clips of themselves in chat (issue 50, docs/decisions/365). A media message is an
-- assistant line of the conversation with a row here: what was asked (kind, the request), and the generation task
-- that renders it (owned by the generation domain, charged, refunded and screened there). An offer the character made
-- (a tool call) has no task until the person accepts it. The task link is cleared if the task row is ever deleted.
CREATE TABLE "chat_media" (
    "message_id" INTEGER NOT NULL,
    "task_id" INTEGER,
    "kind" TEXT NOT NULL,
    "request" TEXT NOT NULL DEFAULT '',
    "offered" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "chat_media_pkey" PRIMARY KEY ("message_id"),
    CONSTRAINT "chat_media_kind_check" CHECK ("kind" IN ('image', 'video'))
);
CREATE UNIQUE INDEX "chat_media_task_id_key" ON "chat_media"("task_id");
ALTER TABLE "chat_media" ADD CONSTRAINT "chat_media_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "chat_messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "chat_media" ADD CONSTRAINT "chat_media_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "generation_tasks"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- The character's look (issue 50 item 2): up to four reference pictures besides the avatar (storage keys copied from
-- the creator's consented uploads, as the avatar is), and the creator's own trained model the character is tied to.
ALTER TABLE "characters"
    ADD COLUMN "reference_keys" TEXT[] DEFAULT ARRAY[]::TEXT[],
    ADD COLUMN "model_id" INTEGER;
ALTER TABLE "characters" ADD CONSTRAINT "characters_reference_keys_check" CHECK (cardinality("reference_keys") <= 4);
ALTER TABLE "characters" ADD CONSTRAINT "characters_model_id_fkey" FOREIGN KEY ("model_id") REFERENCES "character_models"("id") ON DELETE SET NULL ON UPDATE CASCADE;
