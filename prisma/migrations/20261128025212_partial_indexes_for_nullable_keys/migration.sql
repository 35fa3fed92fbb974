-- Indexes on nullable keys leave their nulls out: a charge's ledger entry has one holder and no
-- once_key, and a default-room row no room_id; every null went to one hot rightmost leaf per index.

-- DropIndex
DROP INDEX "rows_room_id_idx";

-- DropIndex
DROP INDEX "wallet_entries_developer_id_created_at_idx";

-- DropIndex
DROP INDEX "wallet_entries_once_key_key";

-- DropIndex
DROP INDEX "wallet_entries_principal_id_created_at_idx";

-- DropIndex
DROP INDEX "wallet_entries_resource_id_created_at_idx";

-- CreateIndex
CREATE INDEX "rows_room_id_idx" ON "rows"("room_id") WHERE (room_id IS NOT NULL);

-- CreateIndex
CREATE INDEX "wallet_entries_principal_id_created_at_idx" ON "wallet_entries"("principal_id", "created_at") WHERE (principal_id IS NOT NULL);

-- CreateIndex
CREATE INDEX "wallet_entries_developer_id_created_at_idx" ON "wallet_entries"("developer_id", "created_at") WHERE (developer_id IS NOT NULL);

-- CreateIndex
CREATE INDEX "wallet_entries_resource_id_created_at_idx" ON "wallet_entries"("resource_id", "created_at") WHERE (resource_id IS NOT NULL);

-- CreateIndex
CREATE UNIQUE INDEX "wallet_entries_once_key_key" ON "wallet_entries"("once_key") WHERE (once_key IS NOT NULL);
