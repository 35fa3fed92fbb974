-- AlterTable
ALTER TABLE "developers" ADD COLUMN     "linked_at" TIMESTAMP(3),
ADD COLUMN     "principal_id" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "developers_principal_id_key" ON "developers"("principal_id");

-- AddForeignKey
ALTER TABLE "developers" ADD CONSTRAINT "developers_principal_id_fkey" FOREIGN KEY ("principal_id") REFERENCES "principals"("id") ON DELETE SET NULL ON UPDATE CASCADE;
