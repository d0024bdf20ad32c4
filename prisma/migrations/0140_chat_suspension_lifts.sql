-- A chat suspension is lifted by staff (decision 180): the hits that made it are kept, marked lifted, and no longer count.
ALTER TABLE "chat_policy_hits" ADD COLUMN "lifted_at" TIMESTAMP(3);
ALTER TABLE "chat_policy_hits" ADD COLUMN "lifted_by_id" INTEGER;
