-- DropIndex
DROP INDEX "rows_resource_id_table_name_created_at_id_idx";

-- CreateIndex
CREATE INDEX "rows_resource_id_table_name_room_id_created_at_id_idx" ON "rows"("resource_id", "table_name", "room_id", "created_at", "id");
