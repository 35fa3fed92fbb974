-- AlterTable
ALTER TABLE "wallet_entries" ADD COLUMN     "calls" INTEGER;

-- CreateTable
CREATE TABLE "wallet_charges" (
    "lease_id" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "principal_id" TEXT,
    "developer_id" TEXT,
    "amount_micros" BIGINT NOT NULL,
    "kind" TEXT NOT NULL,
    "app_id" TEXT,
    "env" TEXT,
    "client_id" TEXT,
    "actor_id" TEXT,
    "quantity" BIGINT,
    "created_at" TIMESTAMP(3) NOT NULL,
    "reads_micros" BIGINT,
    "writes_micros" BIGINT,
    "transfer_micros" BIGINT,

    CONSTRAINT "wallet_charges_pkey" PRIMARY KEY ("lease_id","id")
);

-- Every charge so far is an entry of its own.
UPDATE "wallet_entries" SET "calls" = 1 WHERE "lease_id" IS NOT NULL;

-- The charges of the leases open now leave the ledger for the new table: they fold back into it,
-- with the rest of their lease's charges, when their lease closes.
INSERT INTO "wallet_charges" ("lease_id", "id", "principal_id", "developer_id", "amount_micros", "kind", "app_id", "env", "client_id",
  "actor_id", "quantity", "created_at", "reads_micros", "writes_micros", "transfer_micros")
SELECT e."lease_id", e."id", e."principal_id", e."developer_id", e."amount_micros", e."kind", e."app_id", e."env", e."client_id",
  e."actor_id", e."quantity", e."created_at", e."reads_micros", e."writes_micros", e."transfer_micros"
FROM "wallet_entries" e JOIN "wallet_leases" l ON l."id" = e."lease_id" WHERE l."closed_at" IS NULL;

DELETE FROM "wallet_entries" e USING "wallet_leases" l WHERE l."id" = e."lease_id" AND l."closed_at" IS NULL;
