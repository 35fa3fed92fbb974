-- AlterTable
ALTER TABLE "developers" ADD COLUMN     "linked_at" TIMESTAMP(3),
ADD COLUMN     "principal_id" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "developers_principal_id_key" ON "developers"("principal_id");

-- AddForeignKey
ALTER TABLE "developers" ADD CONSTRAINT "developers_principal_id_fkey" FOREIGN KEY ("principal_id") REFERENCES "principals"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- CreateTable
CREATE TABLE "deployment_versions" (
    "deployment_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "schema" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "deployment_versions_pkey" PRIMARY KEY ("deployment_id","version")
);

-- AddForeignKey
ALTER TABLE "deployment_versions" ADD CONSTRAINT "deployment_versions_deployment_id_fkey" FOREIGN KEY ("deployment_id") REFERENCES "deployments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The current version of each environment deployed before this history began.
INSERT INTO "deployment_versions" ("deployment_id", "version", "schema", "created_at")
SELECT "id", "version", "schema", "updated_at" FROM "deployments";
