-- AlterTable
ALTER TABLE "wallet_entries" ADD COLUMN     "reads_micros" BIGINT,
ADD COLUMN     "storage_micros" BIGINT,
ADD COLUMN     "transfer_micros" BIGINT,
ADD COLUMN     "writes_micros" BIGINT;

-- CreateIndex
CREATE INDEX "wallet_entries_app_id_env_created_at_idx" ON "wallet_entries"("app_id", "env", "created_at");

-- Entries written before the split: each is put in its operation's main class (a download's or
-- an upload's bytes moved stay with its read or write: the split was not recorded).
UPDATE "wallet_entries" SET "storage_micros" = "amount_micros" WHERE "kind" = 'storage';
UPDATE "wallet_entries" SET "transfer_micros" = "amount_micros" WHERE "kind" = 'charge:site.transfer';
UPDATE "wallet_entries" SET "reads_micros" = "amount_micros"
  WHERE "kind" IN ('charge:rows.select', 'charge:files.list', 'charge:files.download');
UPDATE "wallet_entries" SET "writes_micros" = "amount_micros"
  WHERE "kind" LIKE 'charge:%' AND "reads_micros" IS NULL AND "transfer_micros" IS NULL;
