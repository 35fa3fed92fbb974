-- AlterTable
ALTER TABLE "wallets" ADD COLUMN     "reserved_micros" BIGINT NOT NULL DEFAULT 0;

-- The leases open when this migration runs.
UPDATE "wallets" w SET "reserved_micros" = l.reserved
FROM (SELECT "holder_id", SUM("reserved_micros") AS reserved FROM "wallet_leases" WHERE "closed_at" IS NULL GROUP BY "holder_id") l
WHERE l."holder_id" = w."holder_id";
