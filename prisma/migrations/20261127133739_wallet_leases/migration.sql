-- AlterTable
ALTER TABLE "wallet_entries" ADD COLUMN     "lease_id" TEXT;

-- CreateTable
CREATE TABLE "wallet_leases" (
    "id" TEXT NOT NULL,
    "holder_id" TEXT NOT NULL,
    "principal_id" TEXT,
    "developer_id" TEXT,
    "budget_id" TEXT,
    "period" TEXT,
    "reserved_micros" BIGINT NOT NULL,
    "used_micros" BIGINT,
    "opened_by" TEXT NOT NULL,
    "opened_at" TIMESTAMP(3) NOT NULL,
    "closed_at" TIMESTAMP(3),

    CONSTRAINT "wallet_leases_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "wallet_leases_holder_id_closed_at_idx" ON "wallet_leases"("holder_id", "closed_at");

-- CreateIndex
CREATE INDEX "wallet_leases_budget_id_period_closed_at_idx" ON "wallet_leases"("budget_id", "period", "closed_at");

-- CreateIndex
CREATE INDEX "wallet_entries_lease_id_idx" ON "wallet_entries"("lease_id");

-- AddForeignKey
ALTER TABLE "wallet_leases" ADD CONSTRAINT "wallet_leases_principal_id_fkey" FOREIGN KEY ("principal_id") REFERENCES "principals"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "wallet_leases" ADD CONSTRAINT "wallet_leases_developer_id_fkey" FOREIGN KEY ("developer_id") REFERENCES "developers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
