-- Template names and prompt suggestions in the app's other languages ({ "ja": ..., "ko": ..., "ru": ... }); the
-- existing columns stay the English text (docs/decisions/069).
ALTER TABLE "templates" ADD COLUMN "names" JSONB NOT NULL DEFAULT '{}';
ALTER TABLE "prompt_suggestions" ADD COLUMN "texts" JSONB NOT NULL DEFAULT '{}';
