-- A creator page is made without a trained model (issue 30 item 1, docs/decisions/253): it carries its own cover, an
-- image the creator uploaded, in place of the model's. Like a model's cover, no foreign key: uploads are never deleted
-- as rows, and a taken-down cover simply stops showing. Owned by the creators domain.
ALTER TABLE "creator_pages" ADD COLUMN "cover_upload_id" INTEGER;
