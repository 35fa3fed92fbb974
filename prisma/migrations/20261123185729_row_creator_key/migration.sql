-- CreateIndex
CREATE INDEX "rows_creator_id_idx" ON "rows"("creator_id");

-- AddForeignKey
ALTER TABLE "rows" ADD CONSTRAINT "rows_creator_id_fkey" FOREIGN KEY ("creator_id") REFERENCES "principals"("id") ON DELETE SET NULL ON UPDATE CASCADE;
