-- AlterTable
ALTER TABLE "wallet_entries" ADD COLUMN     "actor_id" TEXT,
ADD COLUMN     "app_id" TEXT,
ADD COLUMN     "client_id" TEXT,
ADD COLUMN     "developer_id" TEXT,
ADD COLUMN     "env" TEXT,
ADD COLUMN     "quantity" BIGINT,
ADD COLUMN     "resource_id" TEXT,
ALTER COLUMN "principal_id" DROP NOT NULL;

-- CreateTable
CREATE TABLE "wallets" (
    "holder_id" TEXT NOT NULL,
    "balance_micros" BIGINT NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "wallets_pkey" PRIMARY KEY ("holder_id")
);

-- CreateTable
CREATE TABLE "budgets" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "payer_id" TEXT NOT NULL,
    "app_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "limit_micros" BIGINT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "budgets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "budget_spends" (
    "budget_id" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "spent_micros" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "budget_spends_pkey" PRIMARY KEY ("budget_id","period")
);

-- CreateTable
CREATE TABLE "files" (
    "id" UUID NOT NULL,
    "deployment_id" TEXT NOT NULL,
    "bucket" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "creator_id" TEXT,
    "resource_id" TEXT,
    "room_id" TEXT,
    "size" BIGINT NOT NULL,
    "content_type" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "blob_key" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "files_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "file_links" (
    "file_id" UUID NOT NULL,
    "resource_id" TEXT NOT NULL,
    "bucket" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "linked_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "file_links_pkey" PRIMARY KEY ("file_id","resource_id","bucket")
);

-- CreateIndex
CREATE INDEX "budgets_app_id_idx" ON "budgets"("app_id");

-- CreateIndex
CREATE UNIQUE INDEX "budgets_kind_payer_id_app_id_key_key" ON "budgets"("kind", "payer_id", "app_id", "key");

-- CreateIndex
CREATE UNIQUE INDEX "files_blob_key_key" ON "files"("blob_key");

-- CreateIndex
CREATE INDEX "files_resource_id_bucket_room_id_path_idx" ON "files"("resource_id", "bucket", "room_id", "path");

-- CreateIndex
CREATE INDEX "files_creator_id_idx" ON "files"("creator_id");

-- CreateIndex
CREATE INDEX "files_room_id_idx" ON "files"("room_id");

-- CreateIndex
CREATE UNIQUE INDEX "files_deployment_id_bucket_scope_path_key" ON "files"("deployment_id", "bucket", "scope", "path");

-- CreateIndex
CREATE UNIQUE INDEX "file_links_resource_id_bucket_path_key" ON "file_links"("resource_id", "bucket", "path");

-- CreateIndex
CREATE INDEX "wallet_entries_developer_id_created_at_idx" ON "wallet_entries"("developer_id", "created_at");

-- CreateIndex
CREATE INDEX "wallet_entries_resource_id_created_at_idx" ON "wallet_entries"("resource_id", "created_at");

-- AddForeignKey
ALTER TABLE "wallet_entries" ADD CONSTRAINT "wallet_entries_developer_id_fkey" FOREIGN KEY ("developer_id") REFERENCES "developers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "wallet_entries" ADD CONSTRAINT "wallet_entries_resource_id_fkey" FOREIGN KEY ("resource_id") REFERENCES "resources"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "budget_spends" ADD CONSTRAINT "budget_spends_budget_id_fkey" FOREIGN KEY ("budget_id") REFERENCES "budgets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "files" ADD CONSTRAINT "files_deployment_id_fkey" FOREIGN KEY ("deployment_id") REFERENCES "deployments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "files" ADD CONSTRAINT "files_creator_id_fkey" FOREIGN KEY ("creator_id") REFERENCES "principals"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "files" ADD CONSTRAINT "files_resource_id_fkey" FOREIGN KEY ("resource_id") REFERENCES "resources"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "files" ADD CONSTRAINT "files_room_id_fkey" FOREIGN KEY ("room_id") REFERENCES "rooms"("id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "file_links" ADD CONSTRAINT "file_links_file_id_fkey" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "file_links" ADD CONSTRAINT "file_links_resource_id_fkey" FOREIGN KEY ("resource_id") REFERENCES "resources"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Balances of the entries written before this migration.
INSERT INTO "wallets" ("holder_id", "balance_micros")
SELECT "principal_id", SUM("amount_micros") FROM "wallet_entries" WHERE "principal_id" IS NOT NULL GROUP BY "principal_id";
