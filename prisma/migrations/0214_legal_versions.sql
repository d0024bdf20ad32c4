-- Legal pages staff complete (issue 35 item 2, docs/decisions/282): versions of the operator's particulars and the
-- documents' texts, each in force from its effective date; owned by the legal domain. An order records the version the
-- person agreed to (orders.terms_version, written by the orders domain; null for orders opened before this).
CREATE TABLE "legal_versions" (
    "id" SERIAL NOT NULL,
    "version" INTEGER NOT NULL,
    "effective_at" TIMESTAMP(3) NOT NULL,
    "company_name" TEXT NOT NULL DEFAULT '',
    "address" TEXT NOT NULL DEFAULT '',
    "contact_email" TEXT NOT NULL DEFAULT '',
    "dmca_agent" TEXT NOT NULL DEFAULT '',
    "custodian_statement" TEXT NOT NULL DEFAULT '',
    "documents" JSONB NOT NULL,
    "created_by_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "legal_versions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "legal_versions_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "staff"("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "legal_versions_version_key" ON "legal_versions"("version");
CREATE INDEX "legal_versions_effective_at_idx" ON "legal_versions"("effective_at");

ALTER TABLE "orders" ADD COLUMN "terms_version" INTEGER;
