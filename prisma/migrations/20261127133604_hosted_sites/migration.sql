-- CreateTable
CREATE TABLE "site_blobs" (
    "deployment_id" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "size" BIGINT NOT NULL,
    "blob_key" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "site_blobs_pkey" PRIMARY KEY ("deployment_id","sha256")
);

-- CreateTable
CREATE TABLE "site_versions" (
    "id" TEXT NOT NULL,
    "deployment_id" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "files" JSONB NOT NULL,
    "file_count" INTEGER NOT NULL,
    "bytes" BIGINT NOT NULL,
    "spa" BOOLEAN NOT NULL DEFAULT false,
    "developer_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "site_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sites" (
    "deployment_id" TEXT NOT NULL,
    "active_version_id" TEXT NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sites_pkey" PRIMARY KEY ("deployment_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "site_blobs_blob_key_key" ON "site_blobs"("blob_key");

-- CreateIndex
CREATE UNIQUE INDEX "site_versions_deployment_id_number_key" ON "site_versions"("deployment_id", "number");

-- AddForeignKey
ALTER TABLE "site_blobs" ADD CONSTRAINT "site_blobs_deployment_id_fkey" FOREIGN KEY ("deployment_id") REFERENCES "deployments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "site_versions" ADD CONSTRAINT "site_versions_deployment_id_fkey" FOREIGN KEY ("deployment_id") REFERENCES "deployments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sites" ADD CONSTRAINT "sites_deployment_id_fkey" FOREIGN KEY ("deployment_id") REFERENCES "deployments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
